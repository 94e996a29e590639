import { recordStoryRoutes } from "@/lib/api/record-story-routes";

// POST /api/leads/{id}/notes – a note on the lead, kept in its activity (201)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = recordStoryRoutes("lead").notes;
