import { recordStoryRoutes } from "@/lib/api/record-story-routes";

// POST /api/leads/{id}/archive – archive the lead, recorded in its activity; the lead as GET answers it
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = recordStoryRoutes("lead").archive;
