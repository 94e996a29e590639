/** A value before or after a settings change: text, number, yes/no, a list, an object or nothing. */
export type AuditValue = string | number | boolean | null | readonly AuditValue[] | AuditObject;
export interface AuditObject {
  readonly [key: string]: AuditValue;
}

/** One changed field of an audit entry; never a secret or a hash (lib/domain/audit/audit.ts). */
export interface AuditChange {
  field: string;
  from: AuditValue;
  to: AuditValue;
}

/**
 * The kinds of audit entries, dotted `<target>.<what>`, with the label the settings page shows. Kinds
 * are free text in the table, so a new one needs only its writer; listing it here names it in the filter.
 */
export const AUDIT_KIND_LABELS = {
  "user.created": "User added",
  "user.role_changed": "Role changed",
  "user.deactivated": "User deactivated",
  "user.reactivated": "User reactivated",
  "user.signed_out": "User signed out everywhere",
  "user.password_reset_requested": "Password reset requested",
  "user.password_reset_issued": "Password reset link issued",
  "user.password_reset_withdrawn": "Password reset link withdrawn",
  "user.password_reset": "Password reset",
  "invite.created": "Invite sent",
  "invite.revoked": "Invite revoked",
  "invite.withdrawn": "Invite withdrawn",
  "invite.accepted": "Invite accepted",
  "two_factor.enabled": "Two-factor turned on",
  "two_factor.disabled": "Two-factor turned off",
  "two_factor.recovery_codes_replaced": "Recovery codes replaced",
  "two_factor.recovery_code_used": "Recovery code used",
  "company.two_factor_required": "Two-factor requirement changed",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "pipeline.changed": "Pipeline changed",
  "lost_reasons.changed": "Lost reasons changed",
  "pin_types.changed": "Pin types changed",
  "territory.created": "Territory created",
  "territory.updated": "Territory updated",
  "territory.deleted": "Territory deleted",
  "webhook.created": "Webhook created",
  "webhook.updated": "Webhook updated",
  "webhook.deleted": "Webhook deleted",
  "webhook.secret_rotated": "Webhook secret rotated",
  "webhook.disabled": "Webhook disabled automatically",
} as const satisfies Record<string, string>;

export type AuditKind = keyof typeof AUDIT_KIND_LABELS;
export const AUDIT_KINDS = Object.keys(AUDIT_KIND_LABELS) as AuditKind[];

/** The label of a kind; an unlisted kind shows as itself. */
export const auditKindLabel = (kind: string): string =>
  (AUDIT_KIND_LABELS as Record<string, string>)[kind] ?? kind;
