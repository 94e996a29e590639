import { describe, expect, it } from "vitest";
import { GET as listPlansRoute } from "@/app/api/service-plans/route";
import {
  SERVICE_PLAN_SORT_FIELDS,
  type ListServicePlansResponse,
  type ServicePlan,
  type ServicePlanSortField,
} from "@/lib/schemas/service-plans";
import { apiRequest, call } from "@/lib/testing/factories";
import { createPlanJobScenario } from "@/lib/testing/plan-job-fixtures";
import { bySortKeys, type SortValue } from "@/lib/testing/sort-order";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type ErrorBody = { error_code?: string; details?: { field: string }[] };

const list = (key: string, query: string) =>
  call<ListServicePlansResponse>(listPlansRoute, apiRequest(`/service-plans?${query}`, { key }));
const ids = (body: ListServicePlansResponse) => body.data.map((plan) => plan.id);

/** A plan's value for a sort field, as the list compares it: an empty service type is none. */
function planKey(plan: ServicePlan, field: ServicePlanSortField): SortValue {
  switch (field) {
    case "created_at":
      return new Date(plan.created_at);
    case "start_date":
      return plan.start_date ? new Date(plan.start_date) : null;
    case "service_type":
      return plan.service_type ? plan.service_type.toLowerCase() : null;
    default:
      return plan[field];
  }
}

describe(`GET /api/service-plans?sort (${testEngine()})`, () => {
  it("sorts by every field both ways, empty values last, ties by id descending", async () => {
    const s = await createPlanJobScenario(database.db);
    const all = (await list(s.key, "limit=100")).body.data;
    expect(all.length).toBeGreaterThan(2);
    for (const field of SERVICE_PLAN_SORT_FIELDS) {
      for (const sort of [field, `-${field}`]) {
        const res = await list(s.key, `sort=${sort}`);
        expect(res.status, sort).toBe(200);
        expect(ids(res.body), sort).toEqual(bySortKeys(all, sort, planKey));
        // Pages of one plan walk the same order.
        const paged: string[] = [];
        for (let page = 1; page <= all.length; page++)
          paged.push(...ids((await list(s.key, `sort=${sort}&limit=1&page=${page}`)).body));
        expect(paged, sort).toEqual(ids(res.body));
      }
    }
    const byTwo = await list(s.key, "sort=-num_completed_jobs,start_date&status=active");
    const active = all.filter((plan) => plan.active);
    expect(ids(byTwo.body)).toEqual(bySortKeys(active, "-num_completed_jobs,start_date", planKey));
    expect(byTwo.body.pagination.total).toBe(active.length);
  });

  it.each(["bogus", "customer", "sale_value,sale_value", ""])(
    "answers 400 naming sort for sort=%s",
    async (sort) => {
      const s = await createPlanJobScenario(database.db);
      const res = await call<ErrorBody>(
        listPlansRoute,
        apiRequest(`/service-plans?sort=${sort}`, { key: s.key }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect((res.body.details ?? []).map((d) => d.field)).toEqual(["sort"]);
    },
  );
});
