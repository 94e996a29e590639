import {
  DEFAULT_PIPELINE,
  pipelineResponseSchema,
  putPipelineBodySchema,
  stageSchema,
} from "@/lib/schemas/pipeline";
import { named, type EndpointSpec, type ResourceSpec } from "../types";

const pipeline = named("PipelineResponse", pipelineResponseSchema);

export const pipelinePaths: ResourceSpec = {
  tag: "Pipeline",
  description:
    "The company's lead pipeline: ordered stages, each with a key, label, color and kind (open, won, lost). " +
    "A lead's `stage` holds a stage's key: create-or-update stores a value equal (ignoring case and " +
    "surrounding spaces) to a stage's key or label as that key; any other string is kept as given.",
  components: [named("Stage", stageSchema)],
  endpoints: [
    {
      method: "GET",
      path: "/pipeline",
      operationId: "getPipeline",
      summary: "Get the pipeline",
      description:
        "The stages in order. A company that has not edited its pipeline has the default one: " +
        DEFAULT_PIPELINE.map((s) => `\`${s.key}\``).join(", ") +
        ". Keys stay when a stage is renamed or moved.",
      scopes: ["pipeline:read", "leads:read"],
      responses: [{ status: 200, description: "The stages, in order.", schema: pipeline }],
    },
  ],
};

/** The pipeline's settings endpoints, listed with the other settings (admins, dashboard only). */
export const pipelineSettingsEndpoints: EndpointSpec[] = [
  {
    auth: "session",
    roles: ["admin"],
    method: "GET",
    path: "/settings/pipeline",
    operationId: "getPipelineSettings",
    summary: "Get the pipeline to edit",
    description: "The stages in order, as `GET /pipeline` answers.",
    responses: [{ status: 200, description: "The stages, in order.", schema: pipeline }],
  },
  {
    auth: "session",
    roles: ["admin"],
    method: "PUT",
    path: "/settings/pipeline",
    operationId: "replacePipeline",
    summary: "Replace the pipeline",
    description: [
      "Replaces the whole ordered list of stages at once. Give a stage's `key` to keep it (renaming or " +
        "moving it keeps the leads in it); a stage without a key is new and gets one made from its label " +
        '("Site visit" → `site-visit`).',
      "Keys are lower-case slugs; keys and labels are unique ignoring case, and a label may not be another " +
        "stage's key; colors are `#rrggbb`; at least one stage is `open`. A stage left out that any lead " +
        "uses (archived leads too) is a 409 `STAGE_IN_USE` naming it, and nothing changes.",
    ].join("\n\n"),
    body: named("PutPipelineBody", putPipelineBodySchema),
    responses: [{ status: 200, description: "The pipeline as saved.", schema: pipeline }],
    errors: ["STAGE_IN_USE"],
    errorMessages: {
      STAGE_IN_USE:
        'The stage "Quoted" (quoted) is used by 12 leads: move those leads to another stage first',
    },
    example: {
      body: {
        stages: [
          { key: "new", label: "New", color: "#2563eb", kind: "open" },
          { label: "Site visit", color: "#0e7490", kind: "open" },
          { key: "quoted", label: "Quote sent", color: "#b45309", kind: "open" },
          { key: "won", label: "Won", color: "#15803d", kind: "won" },
          { key: "lost", label: "Lost", color: "#b91c1c", kind: "lost" },
        ],
      },
    },
  },
];
