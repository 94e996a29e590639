import { recordStoryRoutes } from "@/lib/api/record-story-routes";

// GET /api/leads/{id}/activity – the lead's history, newest first (extensions.md E3)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = recordStoryRoutes("lead").activity;
