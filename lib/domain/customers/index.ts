import "server-only";
export { listCustomers, customerFilter, customerListQueries } from "./list-customers";
export { getCustomerOrThrow } from "./get-customer";
export { dryRunUpsertCustomer, upsertCustomer } from "./upsert-customer";
export {
  toCustomer,
  toCustomerDetail,
  toCustomerUpsertResponse,
  type CustomerContext,
} from "./customer-record";
