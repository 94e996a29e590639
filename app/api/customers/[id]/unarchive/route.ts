import { recordStoryRoutes } from "@/lib/api/record-story-routes";

// POST /api/customers/{id}/unarchive – unarchive the customer, recorded in its activity; the customer as GET answers it
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = recordStoryRoutes("customer").unarchive;
