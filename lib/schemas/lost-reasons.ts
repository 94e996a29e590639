import { z } from "zod";

// Lost reasons (beside the pipeline of extensions.md E2): GET /lost-reasons, and GET/PUT
// /settings/lost-reasons (admins). A lead lost for one stores its label in `lost_reason`.

export const LOST_REASON_LABEL_MAX = 100;
export const LOST_REASONS_MAX = 30;

export const lostReasonSchema = z
  .object({
    id: z.string().describe("The reason's id; stays when the reason is renamed or moved."),
    label: z.string().describe("The reason as people see it, and as a lost lead's `lost_reason` stores it."),
  })
  .describe("A reason a lead is lost for.");
export type LostReason = z.output<typeof lostReasonSchema>;

export const lostReasonsResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(lostReasonSchema).describe("The reasons, in the order the admin keeps them."),
  })
  .describe("The company's lost reasons.");
export type LostReasonsResponse = z.output<typeof lostReasonsResponseSchema>;

const lostReasonInputSchema = z.object({
  id: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .optional()
    .describe("The reason's id: give it to keep an existing reason; leave it out for a new one."),
  label: z
    .string({ error: "Enter a reason" })
    .trim()
    .min(1, "Enter a reason")
    .max(LOST_REASON_LABEL_MAX, `At most ${LOST_REASON_LABEL_MAX} characters`)
    .describe("The reason's words."),
});

export const putLostReasonsBodySchema = z
  .object({
    reasons: z
      .array(lostReasonInputSchema, { error: "Give the reasons as a list" })
      .max(LOST_REASONS_MAX, `At most ${LOST_REASONS_MAX} reasons`)
      .describe("Every reason, in order: the list replaces the company's reasons as a whole."),
  })
  .describe(
    "The whole list of lost reasons, in order. Labels are unique ignoring case; ids must be the company's.",
  );
export type PutLostReasonsBody = z.output<typeof putLostReasonsBodySchema>;

/** The reasons the demo company starts with; a company's admin edits its own list in settings. */
export const DEFAULT_LOST_REASONS: readonly string[] = [
  "Price too high",
  "Chose a competitor",
  "No response",
  "Not a fit for our services",
  "Timing: not now",
];
