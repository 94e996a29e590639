import { buildOpenApiDocument } from "@/lib/openapi/document";
import type { JsonObject } from "@/lib/openapi/json-schema";
import type { ApiOperation } from "@/lib/openapi/types";
import * as authInviteAccept from "./auth/invites/accept/route";
import * as authOtherAccounts from "./auth/other-accounts/route";
import * as authPasswordResetConfirm from "./auth/password-reset/confirm/route";
import * as authPasswordReset from "./auth/password-reset/route";
import * as authSession from "./auth/session/route";
import * as authSessionEnd from "./auth/sessions/[id]/route";
import * as authSessions from "./auth/sessions/route";
import * as authSignIn from "./auth/sign-in/route";
import * as authSignInTwoFactor from "./auth/sign-in/two-factor/route";
import * as authTwoFactor from "./auth/two-factor/route";
import * as authTwoFactorDisable from "./auth/two-factor/disable/route";
import * as authTwoFactorEnable from "./auth/two-factor/enable/route";
import * as authTwoFactorRecoveryCodes from "./auth/two-factor/recovery-codes/route";
import * as authTwoFactorSetup from "./auth/two-factor/setup/route";
import * as authSignOut from "./auth/sign-out/route";
import * as authTest from "./auth/test/route";
import * as customerActivity from "./customers/[id]/activity/route";
import * as customerArchive from "./customers/[id]/archive/route";
import * as customerNotes from "./customers/[id]/notes/route";
import * as customer from "./customers/[id]/route";
import * as customerUnarchive from "./customers/[id]/unarchive/route";
import * as customersBulkUndo from "./customers/bulk/[id]/undo/route";
import * as customersBulk from "./customers/bulk/route";
import * as customers from "./customers/route";
import * as leadActivity from "./leads/[id]/activity/route";
import * as leadArchive from "./leads/[id]/archive/route";
import * as leadConvert from "./leads/[id]/convert/route";
import * as leadNotes from "./leads/[id]/notes/route";
import * as lead from "./leads/[id]/route";
import * as leadUnarchive from "./leads/[id]/unarchive/route";
import * as leadsBulkUndo from "./leads/bulk/[id]/undo/route";
import * as leadsBulk from "./leads/bulk/route";
import * as leads from "./leads/route";
import * as leadStageTotals from "./leads/stage-totals/route";
import * as openApiJson from "./openapi.json/route";
import * as pinTypes from "./pin-types/route";
import * as pin from "./pins/[id]/route";
import * as pins from "./pins/route";
import * as pipeline from "./pipeline/route";
import * as lostReasons from "./lost-reasons/route";
import * as importCancel from "./imports/[id]/cancel/route";
import * as importDryRun from "./imports/[id]/dry-run/route";
import * as importProblemsExport from "./imports/[id]/problems/export/route";
import * as importProblems from "./imports/[id]/problems/route";
import * as importOne from "./imports/[id]/route";
import * as importStart from "./imports/[id]/start/route";
import * as imports from "./imports/route";
import * as fieldActivityExport from "./reports/field-activity/export/route";
import * as fieldActivityReport from "./reports/field-activity/route";
import * as servicePlansExport from "./reports/service-plans/export/route";
import * as servicePlanReport from "./reports/service-plans/route";
import * as servicedJobsExport from "./reports/serviced-jobs/export/route";
import * as servicedJobReport from "./reports/serviced-jobs/route";
import * as servicePlans from "./service-plans/route";
import * as servicedJobs from "./serviced-jobs/route";
import * as apiKeyRevoke from "./settings/api-keys/[id]/revoke/route";
import * as apiKeys from "./settings/api-keys/route";
import * as invite from "./settings/invites/[id]/route";
import * as invites from "./settings/invites/route";
import * as pinTypeSettings from "./settings/pin-types/route";
import * as pipelineSettings from "./settings/pipeline/route";
import * as lostReasonSettings from "./settings/lost-reasons/route";
import * as twoFactorSettings from "./settings/two-factor/route";
import * as userActivate from "./settings/users/[id]/activate/route";
import * as userDeactivate from "./settings/users/[id]/deactivate/route";
import * as userPasswordReset from "./settings/users/[id]/password-reset/route";
import * as settingsUsers from "./settings/users/route";
import * as userSignOut from "./settings/users/[id]/sign-out/route";
import * as auditLog from "./settings/audit-log/route";
import * as auditLogExport from "./settings/audit-log/export/route";
import * as webhookDeliveryResend from "./settings/webhooks/[id]/deliveries/[delivery_id]/resend/route";
import * as webhookDeliveries from "./settings/webhooks/[id]/deliveries/route";
import * as webhookTest from "./settings/webhooks/[id]/test/route";
import * as webhookEndpoint from "./settings/webhooks/[id]/route";
import * as webhookRotateSecret from "./settings/webhooks/[id]/rotate-secret/route";
import * as webhookEndpoints from "./settings/webhooks/route";
import * as territory from "./territories/[id]/route";
import * as territories from "./territories/route";
import * as users from "./users/route";

/**
 * Every served verb with its path and route module, in the order of the reference. The OpenAPI
 * document is built from their declarations; lib/openapi/coverage.test.ts keeps the list complete.
 */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ["GET", "/auth/test", authTest],
  ["POST", "/leads", leads],
  ["GET", "/leads", leads],
  ["GET", "/leads/stage-totals", leadStageTotals],
  ["GET", "/leads/{id}", lead],
  ["POST", "/leads/bulk", leadsBulk],
  ["POST", "/leads/bulk/{id}/undo", leadsBulkUndo],
  ["GET", "/leads/{id}/activity", leadActivity],
  ["POST", "/leads/{id}/notes", leadNotes],
  ["POST", "/leads/{id}/archive", leadArchive],
  ["POST", "/leads/{id}/unarchive", leadUnarchive],
  ["POST", "/leads/{id}/convert", leadConvert],
  ["GET", "/pipeline", pipeline],
  ["GET", "/lost-reasons", lostReasons],
  ["POST", "/customers", customers],
  ["GET", "/customers", customers],
  ["GET", "/customers/{id}", customer],
  ["GET", "/customers/{id}/activity", customerActivity],
  ["POST", "/customers/{id}/notes", customerNotes],
  ["POST", "/customers/{id}/archive", customerArchive],
  ["POST", "/customers/{id}/unarchive", customerUnarchive],
  ["POST", "/customers/bulk", customersBulk],
  ["POST", "/customers/bulk/{id}/undo", customersBulkUndo],
  ["GET", "/service-plans", servicePlans],
  ["GET", "/serviced-jobs", servicedJobs],
  ["POST", "/pins", pins],
  ["GET", "/pins", pins],
  ["GET", "/pins/{id}", pin],
  ["GET", "/pin-types", pinTypes],
  ["GET", "/territories", territories],
  ["POST", "/territories", territories],
  ["DELETE", "/territories/{id}", territory],
  ["GET", "/users", users],
  ["GET", "/reports/service-plans", servicePlanReport],
  ["GET", "/reports/service-plans/export", servicePlansExport],
  ["GET", "/reports/serviced-jobs", servicedJobReport],
  ["GET", "/reports/serviced-jobs/export", servicedJobsExport],
  ["GET", "/reports/field-activity", fieldActivityReport],
  ["GET", "/reports/field-activity/export", fieldActivityExport],
  ["POST", "/imports", imports],
  ["GET", "/imports", imports],
  ["GET", "/imports/{id}", importOne],
  ["POST", "/imports/{id}/dry-run", importDryRun],
  ["GET", "/imports/{id}/problems", importProblems],
  ["GET", "/imports/{id}/problems/export", importProblemsExport],
  ["POST", "/imports/{id}/start", importStart],
  ["POST", "/imports/{id}/cancel", importCancel],
  ["DELETE", "/imports/{id}", importOne],
  ["POST", "/auth/sign-in", authSignIn],
  ["POST", "/auth/sign-in/two-factor", authSignInTwoFactor],
  ["POST", "/auth/sign-out", authSignOut],
  ["GET", "/auth/session", authSession],
  ["GET", "/auth/other-accounts", authOtherAccounts],
  ["GET", "/auth/sessions", authSessions],
  ["DELETE", "/auth/sessions", authSessions],
  ["DELETE", "/auth/sessions/{id}", authSessionEnd],
  ["GET", "/auth/two-factor", authTwoFactor],
  ["POST", "/auth/two-factor/setup", authTwoFactorSetup],
  ["POST", "/auth/two-factor/enable", authTwoFactorEnable],
  ["POST", "/auth/two-factor/disable", authTwoFactorDisable],
  ["POST", "/auth/two-factor/recovery-codes", authTwoFactorRecoveryCodes],
  ["POST", "/auth/invites/accept", authInviteAccept],
  ["POST", "/auth/password-reset", authPasswordReset],
  ["POST", "/auth/password-reset/confirm", authPasswordResetConfirm],
  ["GET", "/settings/api-keys", apiKeys],
  ["POST", "/settings/api-keys", apiKeys],
  ["POST", "/settings/api-keys/{id}/revoke", apiKeyRevoke],
  ["GET", "/settings/users", settingsUsers],
  ["POST", "/settings/users", settingsUsers],
  ["POST", "/settings/users/{id}/deactivate", userDeactivate],
  ["POST", "/settings/users/{id}/activate", userActivate],
  ["POST", "/settings/users/{id}/sign-out", userSignOut],
  ["GET", "/settings/audit-log", auditLog],
  ["GET", "/settings/audit-log/export", auditLogExport],
  ["POST", "/settings/users/{id}/password-reset", userPasswordReset],
  ["GET", "/settings/invites", invites],
  ["POST", "/settings/invites", invites],
  ["DELETE", "/settings/invites/{id}", invite],
  ["GET", "/settings/pipeline", pipelineSettings],
  ["PUT", "/settings/pipeline", pipelineSettings],
  ["GET", "/settings/lost-reasons", lostReasonSettings],
  ["PUT", "/settings/lost-reasons", lostReasonSettings],
  ["GET", "/settings/pin-types", pinTypeSettings],
  ["PUT", "/settings/pin-types", pinTypeSettings],
  ["POST", "/settings/webhooks/{id}/test", webhookTest],
  ["GET", "/settings/webhooks/{id}/deliveries", webhookDeliveries],
  ["POST", "/settings/webhooks/{id}/deliveries/{delivery_id}/resend", webhookDeliveryResend],
  ["GET", "/settings/webhooks", webhookEndpoints],
  ["POST", "/settings/webhooks", webhookEndpoints],
  ["DELETE", "/settings/webhooks/{id}", webhookEndpoint],
  ["POST", "/settings/webhooks/{id}/rotate-secret", webhookRotateSecret],
  ["GET", "/settings/two-factor", twoFactorSettings],
  ["PUT", "/settings/two-factor", twoFactorSettings],
  ["GET", "/openapi.json", openApiJson],
];

let cached: JsonObject | undefined;
/** The document of this server, built once per process. */
export function getOpenApiDocument(): JsonObject {
  cached ??= buildOpenApiDocument(API_OPERATIONS);
  return cached;
}
