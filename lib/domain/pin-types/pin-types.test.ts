import { describe, expect, it } from "vitest";
import { GET as listPinTypes } from "@/app/api/pin-types/route";
import { apiRequest, call, createApiKey, createTenant } from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { listPinTypesResponseSchema, type ListPinTypesResponse } from "@/lib/schemas/pin-types";

const database = setupTestDatabase();

describe(`GET /api/pin-types (${testEngine()})`, () => {
  it("lists every type by label, id descending between equal labels, without pagination", async () => {
    const { companyId, key } = await createTenant(database.db);
    const db = database.db;
    await insertPinType(db, companyId, { id: `${companyId}_1`, label: "Sold", color: "#00AA00" });
    await insertPinType(db, companyId, { id: `${companyId}_2`, label: "Callback", color: "#ff0" });
    await insertPinType(db, companyId, { id: `${companyId}_3`, label: "Callback", color: "#f00" });
    await insertPinType(db, companyId, { id: `${companyId}_4`, label: "Not Home", color: "#123456" });
    const res = await call<ListPinTypesResponse>(
      listPinTypes,
      apiRequest("/pin-types?page=2&limit=1", { key }),
    );
    expect(res.status).toBe(200);
    expect(listPinTypesResponseSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      status: "success",
      data: [
        { id: `${companyId}_3`, color: "#f00", label: "Callback", position: 0 },
        { id: `${companyId}_2`, color: "#ff0", label: "Callback", position: 0 },
        { id: `${companyId}_4`, color: "#123456", label: "Not Home", position: 0 },
        { id: `${companyId}_1`, color: "#00AA00", label: "Sold", position: 0 },
      ],
    });
    expect(res.body).not.toHaveProperty("pagination");
  });

  it("answers an empty list for a company without types, and never another company's", async () => {
    const mine = await createTenant(database.db);
    const other = await createTenant(database.db);
    await insertPinType(database.db, other.companyId, { label: "Theirs" });
    const res = await call<ListPinTypesResponse>(listPinTypes, apiRequest("/pin-types", { key: mine.key }));
    expect(res.body).toEqual({ status: "success", data: [] });
  });

  it("accepts pin_types:read or the legacy leads:read scope and names leads:read in a 403", async () => {
    const { companyId } = await createTenant(database.db);
    await insertPinType(database.db, companyId, { label: "Sold" });
    for (const scope of ["pin_types:read", "leads:read"] as const) {
      const { key } = await createApiKey(database.db, companyId, { scopes: [scope] });
      const res = await call<ListPinTypesResponse>(listPinTypes, apiRequest("/pin-types", { key }));
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
    }
    const { key } = await createApiKey(database.db, companyId, { scopes: ["pins:read"] });
    const res = await call(listPinTypes, apiRequest("/pin-types", { key }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
    expect(res.body.message).toContain("leads:read");
  });
});
