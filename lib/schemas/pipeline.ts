import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { STAGE_KINDS } from "@/lib/values/enums";

// The lead pipeline (extensions.md E2): GET /pipeline, and GET/PUT /settings/pipeline (admins).

export const STAGE_KEY_MAX = 50;
export const STAGE_LABEL_MAX = 50;
export const PIPELINE_STAGES_MAX = 30;
/** A stage key: lower-case letters and digits, words joined by single `-` or `_`. */
export const STAGE_KEY_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

export const stageSchema = z
  .object({
    key: z
      .string()
      .describe("What a lead's `stage` stores for this stage; stays when the stage is renamed or moved."),
    label: z.string().describe("The stage's name as people see it."),
    color: z.string().describe("Hex color #rrggbb (lower case)."),
    kind: z.enum(STAGE_KINDS).describe("open (still being worked), won or lost."),
  })
  .describe("A stage of the lead pipeline.");
export type Stage = z.output<typeof stageSchema>;

export const pipelineResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(stageSchema).describe("The stages, in pipeline order."),
  })
  .describe("The company's lead pipeline.");
export type PipelineResponse = z.output<typeof pipelineResponseSchema>;

const stageInputSchema = z.object({
  key: maxChars(
    z.string({ error: "must be a string" }).trim().toLowerCase(),
    STAGE_KEY_MAX,
    `at most ${STAGE_KEY_MAX} characters`,
  )
    .regex(STAGE_KEY_PATTERN, "use lower-case letters and digits, words joined by - or _")
    .optional()
    .describe(
      "The stage's key: give it to keep an existing stage; leave it out and a new stage gets one from its label.",
    ),
  label: maxChars(
    nonBlank(z.string({ error: "Enter a name" }).trim(), "Enter a name"),
    STAGE_LABEL_MAX,
    `At most ${STAGE_LABEL_MAX} characters`,
  ).describe("The stage's name."),
  color: z
    .string({ error: "Enter a color as #rrggbb" })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "Enter a color as #rrggbb")
    .transform((color) => color.toLowerCase())
    .describe("Hex color #rrggbb."),
  kind: z.enum(STAGE_KINDS, { error: `Choose ${STAGE_KINDS.join(", ")}` }).describe("open, won or lost."),
});
export type StageInput = z.output<typeof stageInputSchema>;

export const putPipelineBodySchema = z
  .object({
    stages: z
      .array(stageInputSchema, { error: "Give the stages as a list" })
      .min(1, "Keep at least one stage")
      .max(PIPELINE_STAGES_MAX, `At most ${PIPELINE_STAGES_MAX} stages`)
      .describe("Every stage, in order: the list replaces the pipeline as a whole."),
  })
  .describe(
    "The whole pipeline, in order. Keys and labels are unique ignoring case (a label may not be another " +
      "stage's key), at least one stage is open, and a stage a lead uses (archived leads too) cannot be left out.",
  );
export type PutPipelineBody = z.output<typeof putPipelineBodySchema>;

// ---- Shared rules (server and dashboard) ----------------------------------------------------

/** A company's pipeline until an admin edits it. Colors read on white (WCAG 3:1 or more). */
export const DEFAULT_PIPELINE: readonly Stage[] = [
  { key: "new", label: "New", color: "#2563eb", kind: "open" },
  { key: "contacted", label: "Contacted", color: "#7c3aed", kind: "open" },
  { key: "quoted", label: "Quoted", color: "#b45309", kind: "open" },
  { key: "won", label: "Won", color: "#15803d", kind: "won" },
  { key: "lost", label: "Lost", color: "#b91c1c", kind: "lost" },
];

const fold = (text: string) => text.trim().toLowerCase();

/**
 * The stage a lead's stage value names: equal, ignoring case and surrounding spaces, to its key or
 * its label (a key match first). Undefined for a value outside the pipeline.
 */
export function findStage<S extends Stage>(pipeline: readonly S[], value: string): S | undefined {
  const folded = fold(value);
  return (
    pipeline.find((s) => s.key === folded) ??
    pipeline.find((s) => fold(s.key) === folded || fold(s.label) === folded)
  );
}

/** What create-or-update stores for a given stage: the stage's key, else the value trimmed. */
export function storedStage(pipeline: readonly Stage[], value: string): string {
  return findStage(pipeline, value)?.key ?? value.trim();
}

/** A key for a new stage from its label ("Site visit" → "site-visit"), unique among `taken`. */
export function stageKeyFromLabel(label: string, taken: ReadonlySet<string>): string {
  const base =
    label
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, STAGE_KEY_MAX - 4)
      .replace(/-+$/, "") || "stage";
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  return key;
}
