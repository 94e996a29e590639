// Kept so existing importers build while they move to lib/values/scopes and lib/auth/permissions.
export { SCOPES, isScope, type Scope } from "@/lib/values/scopes";
export {
  ROLE_SCOPES,
  hasAnyScope,
  keyScopesGranting,
  scopeNamedInRefusal,
  scopesAcceptedFromKeys,
} from "./permissions";
