/** The fields a customer can be named by: the record's five (at least one is set), and its id. */
export interface NamedCustomer {
  id?: string;
  first_name?: string | null;
  last_name?: string | null;
  company_name?: string | null;
  email?: string | null;
  phone?: string | null;
}

/**
 * How a customer is named on screen: "First Last", else the company name, else the email or
 * phone (the order of the record's fields in the API and the exports), else its id.
 */
export function customerName(customer: NamedCustomer): string {
  const person = [customer.first_name?.trim(), customer.last_name?.trim()].filter(Boolean).join(" ");
  return (
    person || customer.company_name?.trim() || customer.email || customer.phone || customer.id || "(no name)"
  );
}
