import "server-only";
import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import { ERROR_CODES } from "@/lib/api/errors";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { MAX_QUERY_LENGTH, VERSION_HEADER } from "@/lib/api/handler";
import { API_VERSION } from "@/lib/schemas/auth";
import { SCOPES } from "@/lib/values/scopes";
import { ROLE_SCOPES } from "@/lib/auth/permissions";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { NOTES_MAX, SHORT_TEXT_MAX, TAG_MAX, TAGS_MAX } from "@/lib/schemas/upsert-fields";
import { CHECK_ORDER, errorDescription, errorStatus } from "./errors";
import type { ResourceSpec } from "./types";

/**
 * The reference's introduction as data: emitted as markdown (info.description, for generic OpenAPI tools)
 * and as `x-guide` sections /docs renders. Numbers come from the constants the server itself uses.
 */
export type GuideBlock =
  | { kind: "text"; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "table"; columns: string[]; rows: string[][] }
  | { kind: "code"; text: string };

export interface GuideSection {
  id: string;
  title: string;
  blocks: GuideBlock[];
}

/** The endpoints of the original interface's legacy rule: they accept leads:read beside their own scope. */
function legacyEndpoints(resources: readonly ResourceSpec[]): string[] {
  return resources
    .flatMap((r) => r.endpoints)
    .filter((e) => e.scopeNamed === "leads:read" && e.scopes?.[0] !== "leads:read")
    .map((e) => `\`${e.method} ${e.path}\``);
}

/**
 * Per scope, the endpoints a key with it may call. Session-only endpoints are left out: a key is
 * refused there whatever its scopes (sessionOnlyText lists them).
 */
function scopeRows(resources: readonly ResourceSpec[]): string[][] {
  const endpoints = resources.flatMap((r) => r.endpoints).filter((e) => (e.auth ?? "both") === "both");
  return SCOPES.map((scope) => {
    const accepting = endpoints.filter((e) => e.scopes?.includes(scope));
    return [
      `\`${scope}\``,
      accepting.length > 0
        ? accepting.map((e) => `\`${e.method} ${e.path}\``).join(", ")
        : "(no endpoint yet)",
    ];
  });
}

/** The session-only endpoints grouped by the roles allowed, e.g. "… (admin or manager sessions)". */
function sessionOnlyText(resources: readonly ResourceSpec[]): string {
  const groups = new Map<string, string[]>();
  for (const e of resources.flatMap((r) => r.endpoints).filter((e) => e.auth === "session")) {
    const who = e.roles ? `${e.roles.join(" or ")} sessions` : "any signed-in user";
    groups.set(who, [...(groups.get(who) ?? []), `\`${e.method} ${e.path}\``]);
  }
  const listed = [...groups].map(([who, endpoints]) => `${endpoints.join(", ")} (${who})`);
  return (
    "Dashboard sessions only: an API key is refused with 403 `FORBIDDEN` whatever its scopes, so " +
    `these endpoints are not in the scope table: ${listed.join("; ")}.`
  );
}

export function guideSections(resources: readonly ResourceSpec[] = []): GuideSection[] {
  return [
    {
      id: "introduction",
      title: "Introduction",
      blocks: [
        {
          kind: "text",
          text:
            "The FieldCRM API reads and writes one company's CRM data: leads and customers (create-or-update, " +
            "list, get by id), service plans, serviced jobs, map pins and pin types (list), and reports. " +
            "The dashboard uses the very same endpoints.",
        },
        {
          kind: "text",
          text:
            "Base URL: `<origin>/api`, for instance `http://localhost:3000/api` for the development server. " +
            "Every path in this reference is relative to it. Requests and responses are JSON (UTF-8); the " +
            "report exports answer CSV.",
        },
        {
          kind: "code",
          text: `curl "http://localhost:3000/api/auth/test" \\\n  -H "${VERSION_HEADER}: ${API_VERSION}" \\\n  -H "x-api-key: $FIELDCRM_API_KEY"`,
        },
      ],
    },
    {
      id: "headers",
      title: "Headers",
      blocks: [
        {
          kind: "table",
          columns: ["Header", "Direction", "Meaning"],
          rows: [
            [
              `\`${VERSION_HEADER}\``,
              "request",
              `Required on every endpoint (except \`/openapi.json\`); the only value is \`${API_VERSION}\`.`,
            ],
            ["`x-api-key`", "request", "Your API key (or the dashboard's session cookie instead)."],
            [
              "`Content-Type`",
              "request",
              "`application/json` on every request with a body; anything else is a 415.",
            ],
            ["`x-request-id`", "response", "On every response: the id of the request in the server's log."],
            [
              "`RateLimit-Policy`, `RateLimit`, `X-RateLimit-*`",
              "response",
              "On every response to an API key: the daily quota (see Rate limits).",
            ],
            ["`Retry-After`", "response", "On a 429 (seconds until 00:00 UTC) and a 503 (seconds)."],
            [
              "`Allow`",
              "response",
              "On a 405 and on OPTIONS (204), alike: the methods the path accepts, HEAD with GET, and OPTIONS.",
            ],
          ],
        },
      ],
    },
    {
      id: "authentication",
      title: "Authentication and scopes",
      blocks: [
        {
          kind: "text",
          text:
            "Send an API key in the `x-api-key` header. A key belongs to one company: every list and lookup " +
            "sees only that company's records, and another company's id is simply not found. Keys carry " +
            "scopes; each endpoint lists the scopes it accepts (any one of them is enough).",
        },
        {
          kind: "table",
          columns: ["Scope", "Accepted from an API key by"],
          rows: scopeRows(resources),
        },
        {
          kind: "text",
          text:
            "Legacy rule: keys made for the original interface carry only `leads:read`, so these endpoints " +
            `accept it beside their own scope, and their 403 names \`leads:read\`: ${legacyEndpoints(resources).join(", ")}. ` +
            "`GET /auth/test` needs no scope at all.",
        },
        {
          kind: "text",
          text:
            `The dashboard calls the same endpoints with its session cookie \`${SESSION_COOKIE}\` (HttpOnly, ` +
            "SameSite=Lax) instead of a key, and sends the version header like any client. A session acts for " +
            "its user's company with the scopes of the user's role; sessions do not use a key's quota. " +
            "Settings endpoints are for admin sessions only.",
        },
        { kind: "text", text: sessionOnlyText(resources) },
        {
          kind: "table",
          columns: ["Role", "Scopes"],
          rows: Object.entries(ROLE_SCOPES).map(([role, scopes]) => [
            `\`${role}\``,
            scopes.length === SCOPES.length ? "all scopes" : scopes.map((s) => `\`${s}\``).join(", "),
          ]),
        },
      ],
    },
    {
      id: "rate-limits",
      title: "Rate limits",
      blocks: [
        {
          kind: "text",
          text:
            `Each key has a daily request limit, ${DEFAULT_DAILY_LIMIT} unless the key says otherwise. ` +
            "Every request that passes the key check uses one unit, whatever its outcome. The day is the UTC " +
            "calendar day: the count resets at 00:00 UTC. When the limit is used up the API answers 429 " +
            "`RATE_LIMIT_EXCEEDED` with `Retry-After`. The count is exact under concurrency.",
        },
        {
          kind: "table",
          columns: ["Response header", "Example", "Meaning"],
          rows: [
            [
              "`RateLimit-Policy`",
              `\`"daily";q=${DEFAULT_DAILY_LIMIT};w=86400\``,
              "The quota: q requests per w seconds.",
            ],
            ["`RateLimit`", '`"daily";r=998;t=43200`', "r requests left; t seconds until 00:00 UTC."],
            ["`X-RateLimit-Limit`", `\`${DEFAULT_DAILY_LIMIT}\``, "The daily limit."],
            ["`X-RateLimit-Remaining`", "`998`", "Requests left today."],
            ["`X-RateLimit-Reset`", "`1767225600`", "The next 00:00 UTC in Unix seconds."],
            ["`Retry-After`", "`43200`", "On a 429: seconds until the count resets."],
          ],
        },
      ],
    },
    {
      id: "pagination",
      title: "Pagination and lists",
      blocks: [
        {
          kind: "list",
          items: [
            `\`page\` (1-based, default 1) and \`limit\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}) on every list except pin types. A value that is not a whole number or out of range is a 400 \`VALIDATION_ERROR\` naming the parameter.`,
            "Every list answers `pagination`: `page`, `limit`, `total` (exact count of matching records) and `has_more` (`page * limit < total`). A page past the end answers `data: []` with the true `total`.",
            "Lists are ordered newest first by `created_at`, with `id` descending as the tie-break; pin types are ordered by `label`. Offset pages drift while records are written: a record created between two requests pushes one record from page 1 onto page 2 (read twice), and one archived pulls a record back (never read). To read every record once, walk the changes by cursor (below).",
            "Booleans are `true` or `false` (any case); dates are ISO 8601 dates or date-times, range bounds inclusive, and a date without a time means its whole UTC day. Other values are a 400.",
            "`tags` filters take a comma-separated list and match records having any of them. Unknown query parameters are ignored.",
          ],
        },
      ],
    },
    {
      id: "change-feed",
      title: "Change feed: every change, by cursor",
      blocks: [
        {
          kind: "list",
          items: [
            "`GET /leads`, `GET /customers` and `GET /pins` walk their changes with `updated_since` (an ISO 8601 date-time, inclusive) or `cursor`: the records created or changed since, archived ones included, ordered by the time of the change, oldest first. The other filters still apply.",
            "Each page's `pagination.next_cursor` is the `cursor` of the next page; send it with the same filters (and any `limit`). It is `null` on the last page. `page` with `cursor` is a 400 naming `cursor`, as is a cursor that was altered or belongs to another list or other filters. In a walk `total` counts the records handed out so far.",
            "A walk never skips a committed change, even one whose transaction began before the walk passed its time and committed after: such a change, and those after it, wait for a later page (a page may come back empty with a `next_cursor`: ask again a moment later). Pages never repeat; a record shows again only when it changed again.",
            "To catch up after downtime, walk from the timestamp of the last event handled (`updated_since`), a few minutes earlier for safety: records seen again are the same state, so handling them twice is harmless.",
          ],
        },
      ],
    },
    {
      id: "errors",
      title: "Errors",
      blocks: [
        {
          kind: "text",
          text:
            'Every error is JSON: `{ "status": "error", "message": "…", "error_code": "…", "details": [...] }`. ' +
            "`error_code` is present for the coded errors; `details` lists every bad field of a " +
            "`VALIDATION_ERROR` as `{ field, message }`. The checks run in this order and the first that " +
            "fails answers:",
        },
        {
          kind: "table",
          columns: ["Check", "Status", "error_code", "When"],
          rows: CHECK_ORDER.flatMap((row) =>
            row.errors.map((error) => [
              row.step,
              String(errorStatus(error)),
              error === "RECORD_NOT_FOUND" || error === "INTERNAL" ? "(none)" : `\`${error}\``,
              errorDescription(error),
            ]),
          ),
        },
        {
          kind: "text",
          text:
            "A 500 never carries a stack trace, SQL or a file path; quote its `x-request-id` when reporting it. " +
            `Every status in this table comes from the server's own table (${Object.keys(ERROR_CODES).length} codes).`,
        },
      ],
    },
    {
      id: "limits",
      title: "Limits",
      blocks: [
        {
          kind: "table",
          columns: ["Limit", "Value"],
          rows: [
            ["Requests per API key per UTC day", `${DEFAULT_DAILY_LIMIT} unless the key says otherwise`],
            ["Request body", `${MAX_BODY_BYTES} bytes (1 MiB); larger is a 413`],
            ["Query string", `${MAX_QUERY_LENGTH} characters; longer is a 400`],
            ["Page size (`limit`)", `1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}`],
            ["Short text fields", `${SHORT_TEXT_MAX} characters`],
            ["`notes`", `${NOTES_MAX.toLocaleString("en-US")} characters`],
            ["`tags`", `${TAGS_MAX} tags of at most ${TAG_MAX} characters`],
            [
              "Text",
              "lengths count characters (Unicode code points); the NUL character (U+0000), which PostgreSQL " +
                "cannot store, is a 400 naming its field",
            ],
            ["Response time", "a request that cannot finish within 5 s answers 503 `SERVICE_UNAVAILABLE`"],
          ],
        },
      ],
    },
    {
      id: "versioning",
      title: "Versioning",
      blocks: [
        {
          kind: "text",
          text:
            `Every request carries \`${VERSION_HEADER}: ${API_VERSION}\`, the current and only version. A missing ` +
            "header or another value is a 400 `UNSUPPORTED_API_VERSION` whose message names the supported " +
            `version. \`GET /auth/test\` reports the version in \`service_api_version\`. The machine-readable ` +
            "OpenAPI 3.1 document of this reference is at `GET /api/openapi.json` (public).",
        },
      ],
    },
  ];
}

/** The guide as markdown, for info.description. */
export function guideMarkdown(sections: GuideSection[]): string {
  const out: string[] = [];
  for (const section of sections) {
    out.push(`## ${section.title}`);
    for (const block of section.blocks) {
      if (block.kind === "text") out.push(block.text);
      else if (block.kind === "list") out.push(block.items.map((item) => `- ${item}`).join("\n"));
      else if (block.kind === "code") out.push("```sh\n" + block.text + "\n```");
      else {
        const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
        out.push(
          [row(block.columns), row(block.columns.map(() => "---")), ...block.rows.map(row)].join("\n"),
        );
      }
    }
  }
  return out.join("\n\n");
}
