import "server-only";
import { ConflictError, ForbiddenError } from "@/lib/domain/errors";
import type { Scope } from "@/lib/values/scopes";

/** A field of the body the caller's scopes do not allow (403 INSUFFICIENT_SCOPE naming the scope). */
export class FieldScopeError extends ForbiddenError {
  override name = "FieldScopeError";
  constructor(
    readonly field: string,
    readonly scope: Scope,
  ) {
    super(`Insufficient scope: ${field} requires the ${scope} scope`);
  }
}

/** A lead that is another user's credit through their pin (409 LEAD_ALREADY_LINKED). */
export class LeadAlreadyLinkedError extends ConflictError {
  override name = "LeadAlreadyLinkedError";
}
