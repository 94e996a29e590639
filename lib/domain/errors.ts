import "server-only";
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
  constructor(readonly types: { type: { id: string; label: string }; pins: number; visits: number }[]) {
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    super(
      types
        .map(
          ({ type, pins, visits }) =>
            `The pin type "${type.label}" is used by ${plural(pins, "pin")} and ${plural(visits, "visit")}`,
        )
        .join("; ") + ": a type in use cannot be removed (rename or recolor it instead)",
    );
  }
}
