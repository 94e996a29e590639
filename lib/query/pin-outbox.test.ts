import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/query/api-client";
import { isFinalRefusal, refusalReason } from "@/lib/query/pin-outbox";

describe("the offline knock queue's view of a failed send", () => {
  it("drops a knock only on a refusal that sending again would repeat", () => {
    const answered = (status: number) => new ApiClientError(status, `status ${status}`);
    for (const status of [400, 403, 404, 409, 422]) {
      expect(isFinalRefusal(answered(status)), String(status)).toBe(true);
    }
    // No answer, a cut-off answer, signed out, timed out, rate limited, server trouble: sent again.
    for (const status of [0, 401, 408, 429, 500, 502, 503]) {
      expect(isFinalRefusal(answered(status)), String(status)).toBe(false);
    }
    expect(isFinalRefusal(new TypeError("network error"))).toBe(false);
  });

  it("tells the user the refusal with each field's problem", () => {
    const invalid = new ApiClientError(400, "Invalid value for pin_type_id", "VALIDATION_ERROR", [
      { field: "pin_type_id", message: "must be a pin type id of the company" },
    ]);
    expect(refusalReason(invalid)).toBe(
      "Invalid value for pin_type_id (pin_type_id must be a pin type id of the company)",
    );
    expect(refusalReason(new ApiClientError(409, "Taken", "CONFLICT"))).toBe("Taken");
  });
});
