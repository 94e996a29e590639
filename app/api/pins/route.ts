import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { listPins } from "@/lib/domain/pins/list";
import { upsertPin } from "@/lib/domain/pins/upsert-pin";
import {
  getPinsQuerySchema,
  listPinsResponseSchema,
  pinUpsertResponseSchema,
  upsertPinBodySchema,
} from "@/lib/schemas/pins";
import { named } from "@/lib/api/route-docs";

// GET /api/pins – list map pins
export const GET = apiRoute({
  permission: "pins:read",
  query: getPinsQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listPins({ ctx, input: query })) }),
  docs: {
    tag: "Pins",
    operationId: "listPins",
    summary: "List pins",
    description: [
      "The company's pins, newest first (`created_at`, then `id`, descending). The filters combine: " +
        "pin type, creator (`created_by` or `user_id`), lead, territory (the pins inside its polygon), " +
        "and `bbox` (the pins inside a box). The map loads them in pages of 1000.",
      "With `updated_since` or `cursor` the list walks the pins' changes instead (the change feed, " +
        "extensions E10): oldest change first, the other filters applied; `pagination.next_cursor` leads " +
        "to the next page, `null` on the last. A walk never skips or repeats a change, where offset " +
        "pages drift while pins are written. `page` with `cursor`, or a cursor altered or made for another list or other filters, is a 400 naming `cursor`.",
      "`bbox=south,west,north,east` in degrees, edges included; latitudes −90..90, longitudes −180..180 " +
        "and south ≤ north, else a 400 naming `bbox`. A west greater than east is a box that crosses " +
        "the antimeridian: from west to 180 and from −180 to east.",
    ].join("\n\n"),
    responses: [
      {
        status: 200,
        description: "A page of pins.",
        schema: named("ListPinsResponse", listPinsResponseSchema),
      },
    ],
    notFound: "Territory",
    example: { query: { bbox: "30.26,-97.75,30.27,-97.74", limit: "1000" } },
  },
});

// POST /api/pins – log a knock: create a pin, or update one with `id` (201 created, 200 updated)
export const POST = apiRoute({
  permission: "pins:write",
  body: upsertPinBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, pin } = await upsertPin({ ctx, input: body });
    return respond(pin, created ? 201 : 200);
  },
  docs: {
    tag: "Pins",
    operationId: "upsertPin",
    summary: "Log a knock: create or update a pin",
    description: [
      "Without `id`: a new pin, which needs `location` and `pin_type_id` (and, with an API key, " +
        "`created_by`: the user who knocked). With `id`: that pin is updated (an unknown id is a 404); " +
        "fields present overwrite, absent fields are kept, `null` clears notes, address parts and lead_id.",
      "A create and each change of `pin_type_id` record a visit `{ at, by, pin_type }` (GET /pins/{id}) and " +
        "move the pin's `visit_count` and `last_visit_at`; an update that changes nothing writes nothing " +
        "and leaves `updated_at` as it was. A change of `pin_type_id` by a user within 10 minutes of their " +
        "last visit to that pin corrects that visit's outcome instead of adding one.",
      "`lead_id` (set or null) needs the `leads:read` scope as well (else 403 `INSUFFICIENT_SCOPE`). A lead " +
        "is the knock-to-cash credit of the user whose pin it is linked to, so only an admin or a manager " +
        "may link a lead that is linked to another user's pin, or change the lead of a pin another user " +
        "created: anyone else gets a 409 `LEAD_ALREADY_LINKED` and nothing changes.",
      "`visited_at` dates a knock sent later (a queue on a phone that was offline): an ISO 8601 " +
        "date-time at most 5 minutes ahead of the server's clock and at most 7 days old, else a 400 naming " +
        "it; default now. It is the visit's `at`, the pin's `created_at` on create and its `last_visit_at` " +
        "(when newer); the 10-minute correction window is measured from it. A change of `pin_type_id` sent " +
        "again with the same `visited_at`, whose visit by the same user is recorded, changes nothing, so a " +
        "queued outcome change retried after a lost answer is one visit.",
      "`client_id` makes a create safe to retry (an offline knock sent again): a create whose `client_id` " +
        "the company has already seen answers 200 with that pin, unchanged, and records nothing; " +
        "concurrent retries make one pin.",
      "With a dashboard session the knocker is the signed-in user and `created_by` is ignored. With an " +
        "API key `created_by` names the user (a user id of the company); on update it names who made " +
        "the change (the pin's creator when absent), and the pin keeps its creator.",
      "A `pin_type_id`, `lead_id` or `created_by` that is not the company's is a 400 naming it.",
    ].join("\n\n"),
    bodyName: "UpsertPinBody",
    responses: [
      {
        status: 201,
        description: "A new pin was created (`message`: Pin created).",
        schema: named("PinUpsertResponse", pinUpsertResponseSchema),
      },
      {
        status: 200,
        description:
          "The pin was updated (`message`: Pin updated), or a create was retried with a client_id " +
          "already seen (`message`: Pin created; nothing written).",
        schema: named("PinUpsertResponse", pinUpsertResponseSchema),
      },
    ],
    notFound: "Pin",
    errors: ["LEAD_ALREADY_LINKED"],
    errorMessages: {
      LEAD_ALREADY_LINKED:
        "The lead lead_01jq8m2x4kd7w3a9c5v6r8t0ye is linked to another user's pin: only an admin or a manager may link it to this pin",
    },
    example: {
      body: {
        location: [30.2672, -97.7431],
        pin_type_id: "pt_01jq8m2x4kd7w3a9c5v6r8t0ye",
        created_by: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye",
        notes: "Come back after 5pm",
        address: { street1: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
        client_id: "c0ffee00-7e57-4b1d-9a2e-000000000001",
      },
    },
    moreExamples: [
      {
        name: "change_outcome",
        summary: "Change a pin's outcome (records a visit)",
        body: { id: "pin_01jq8m2x4kd7w3a9c5v6r8t0ye", pin_type_id: "pt_01jq8m2x4kd7w3a9c5v6r8t0yf" },
      },
    ],
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");
