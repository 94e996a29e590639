import { recordStoryRoutes } from "@/lib/api/record-story-routes";

// GET /api/customers/{id}/activity – the customer's history, newest first (extensions.md E3)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = recordStoryRoutes("customer").activity;
