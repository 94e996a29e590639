import { recordStoryRoutes } from "@/lib/api/record-story-routes";

// POST /api/customers/{id}/notes – a note on the customer, kept in its activity (201)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = recordStoryRoutes("customer").notes;
