import "server-only";
import { errorChain } from "@/lib/values/error-chain";

/**
 * Errors of the rules. They know nothing of HTTP; lib/api/errors.ts maps them once, at the boundary.
 */
export class DomainError extends Error {}

/** Work that ran out of its time, stopped before its answer (503, as the request deadline). */
export class DeadlineExceededError extends DomainError {
  override name = "DeadlineExceededError";
}

/** A record that does not exist for this company (another company's id is "not found" too). */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
  constructor(readonly resource: string) {
    super(`${resource} not found`);
  }
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Input that breaks a rule the schema alone cannot express (e.g. "give a name, email or phone"). */
export class ValidationError extends DomainError {
  override name = "ValidationError";
  constructor(readonly details: FieldProblem[]) {
    super(details.map((d) => `${d.field}: ${d.message}`).join("; ") || "Invalid input");
  }
}

/** The principal may not do this (e.g. a non-admin managing keys). */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
}

/** The request conflicts with the current state (e.g. a duplicate user email). */
export class ConflictError extends DomainError {
  override name = "ConflictError";
}

/** Email and password do not match an account (sign-in). */
export class InvalidCredentialsError extends DomainError {
  override name = "InvalidCredentialsError";
}

/** Too many failed attempts (sign-in throttle): try again after `retryAfterSeconds`. */
export class TooManyAttemptsError extends DomainError {
  override name = "TooManyAttemptsError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A pipeline change that leaves out stages leads still use (extensions.md E2: 409 STAGE_IN_USE). */
export class StageInUseError extends ConflictError {
  override name = "StageInUseError";
  constructor(readonly stages: { stage: { key: string; label: string }; count: number }[]) {
    super(
      stages
        .map(
          ({ stage, count }) =>
            `The stage "${stage.label}" (${stage.key}) is used by ${count} lead${count === 1 ? "" : "s"}`,
        )
        .join("; ") + ": move those leads to another stage first",
    );
  }
}

/** A pin type change that leaves out types pins or their visits still use (409 PIN_TYPE_IN_USE). */
export class PinTypeInUseError extends ConflictError {
  override name = "PinTypeInUseError";
  /** `message` replaces the counted one when the use is only known from the database's refusal. */
  constructor(
    readonly types: { type: { id: string; label: string }; pins: number; visits: number }[],
    message?: string,
  ) {
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    super(
      (message ??
        types
          .map(
            ({ type, pins, visits }) =>
              `The pin type "${type.label}" is used by ${plural(pins, "pin")} and ${plural(visits, "visit")}`,
          )
          .join("; ")) + ": a type in use cannot be removed (rename or recolor it instead)",
    );
  }
}

/**
 * The foreign keys a concurrent settings change can break, by constraint name: a row the write
 * checked was removed before the write committed (`gone`, a 400 naming the field as the check
 * does), or a row being removed gained a reference the removal's check did not see (`inUse`).
 * Keys whose target is never deleted (users, leads, customers, plans, api keys) are left out: their
 * violation is a bug and stays a 500. Territory assignees need no entry: a territory's update
 * locks its row, so a delete waits for it, and a write after the delete answers 404.
 */
interface RemovableReference {
  referenced: string;
  gone: FieldProblem;
  inUse: () => DomainError;
}

const PIN_TYPE_REFERENCE: RemovableReference = {
  referenced: "pin_types",
  gone: { field: "pin_type_id", message: "must be a pin type id of the company (it was just removed)" },
  inUse: () => new PinTypeInUseError([], "A pin type being removed was used by a pin written meanwhile"),
};

const REMOVABLE_REFERENCES: Record<string, RemovableReference> = {
  pins_pin_type_fk: PIN_TYPE_REFERENCE,
  pin_visits_pin_type_fk: PIN_TYPE_REFERENCE,
};

/** The keys mapped and the table each references, for the test that the schema still has them. */
export const MAPPED_FOREIGN_KEYS: readonly { constraint: string; referenced: string }[] = Object.entries(
  REMOVABLE_REFERENCES,
).map(([constraint, { referenced }]) => ({ constraint, referenced }));

/**
 * A database error as the domain error it means, or undefined: a foreign key violation (SQLSTATE
 * 23503, reported alike by PostgreSQL and PGlite) of a key in REMOVABLE_REFERENCES. Both sides of
 * a key report the referencing table and the constraint; only the removal's message names the
 * referenced table (a name, so whatever the server's lc_messages).
 */
export function fromDatabaseError(error: unknown): DomainError | undefined {
  for (const e of errorChain(error)) {
    if (e.code !== "23503") continue;
    const { constraint, message } = e as { constraint?: unknown; message?: unknown };
    const reference = typeof constraint === "string" ? REMOVABLE_REFERENCES[constraint] : undefined;
    if (!reference) return undefined;
    const removal = typeof message === "string" && new RegExp(`\\b${reference.referenced}\\b`).test(message);
    return removal ? reference.inUse() : new ValidationError([reference.gone]);
  }
  return undefined;
}
