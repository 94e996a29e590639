"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import type { PipelineResponse, PutPipelineBody, Stage } from "@/lib/schemas/pipeline";

export type { Stage };

export const pipelineKeys = {
  pipeline: ["pipeline"] as const,
  settings: ["settings", "pipeline"] as const,
};

/** The company's stages in order (GET /api/pipeline), shared by every lead view. */
export function usePipeline() {
  return useQuery({
    queryKey: pipelineKeys.pipeline,
    queryFn: ({ signal }) => apiFetch<PipelineResponse>("/pipeline", { signal }).then((r) => r.data),
    staleTime: 60_000,
  });
}

/** The pipeline as the settings page edits it (GET /api/settings/pipeline, admins). */
export function usePipelineSettings() {
  return useQuery({
    queryKey: pipelineKeys.settings,
    queryFn: ({ signal }) => apiFetch<PipelineResponse>("/settings/pipeline", { signal }).then((r) => r.data),
  });
}

/** Saves the whole ordered list (PUT /api/settings/pipeline); every view then reads the new one. */
export function useSavePipeline() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PutPipelineBody) =>
      apiFetch<PipelineResponse>("/settings/pipeline", { method: "PUT", body }).then((r) => r.data),
    onSuccess: (stages) => {
      client.setQueryData(pipelineKeys.settings, stages);
      client.setQueryData(pipelineKeys.pipeline, stages);
    },
  });
}
