import "server-only";

/**
 * Which column feeds which field of a CSV import: guessed from the headers other CRMs and
 * spreadsheets write (HubSpot, Salesforce, Pipedrive, Zoho, Jobber, GorillaDesk, Excel), then
 * changed by the user. Header names compare without case, spaces or punctuation.
 */

export const IMPORT_TYPES = ["leads", "customers"] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export interface ImportField {
  field: string;
  label: string;
  /** Header names guessed as this field (compared normalized). */
  synonyms: readonly string[];
}

/** Per column: a field name, or null when the column is ignored. */
export type ImportMapping = (string | null)[];

const PHONE = [
  "Phone",
  "Phone Number",
  "Phone #",
  "Phone 1",
  "Mobile",
  "Mobile Phone",
  "Mobile Phone Number",
  "Mobile Number",
  "Cell",
  "Cell Phone",
  "Cell Number",
  "Telephone",
  "Telephone Number",
  "Tel",
  "Primary Phone",
  "Main Phone",
  "Home Phone",
  "Work Phone",
  "Business Phone",
  "Contact Phone",
];
const EMAIL = [
  "Email",
  "E-mail",
  "Email Address",
  "E-mail Address",
  "Email 1",
  "Primary Email",
  "Work Email",
  "Personal Email",
  "Business Email",
  "Contact Email",
  "Mail",
];
const FIRST_NAME = ["First Name", "First", "Given Name", "Fname", "Forename"];
const LAST_NAME = ["Last Name", "Last", "Surname", "Family Name", "Lname"];
const FULL_NAME = ["Name", "Full Name", "Contact Name", "Contact", "Display Name", "Person Name", "Person"];
const STREET1 = [
  "Street",
  "Street 1",
  "Street Address",
  "Street Address 1",
  "Address",
  "Address 1",
  "Address Line 1",
  "Property Address",
  "Property Street",
  "Service Address",
  "Service Street",
];
const STREET2 = [
  "Street 2",
  "Street Address 2",
  "Address 2",
  "Address Line 2",
  "Property Address 2",
  "Service Address 2",
  "Suite",
  "Apt",
  "Apt/Suite",
  "Apartment",
  "Unit",
];
const CITY = ["City", "Town", "City/Town", "Property City", "Service City"];
const STATE = [
  "State",
  "Province",
  "State/Province",
  "State/Region",
  "Region",
  "State Code",
  "Property State",
  "Service State",
];
const ZIP = [
  "Zip",
  "Zip Code",
  "Zipcode",
  "Zip/Postal Code",
  "Postal Code",
  "Postal/Zip Code",
  "Postcode",
  "Post Code",
  "Property Zip",
  "Service Zip",
];
const COUNTRY = ["Country", "Country/Region", "Country Code", "Property Country", "Service Country"];
const NOTES = [
  "Notes",
  "Note",
  "Description",
  "Comments",
  "Comment",
  "Remarks",
  "Details",
  "Message",
  "Additional Information",
  "Internal Notes",
];
const SOURCE = ["Source", "Lead Source", "Original Source", "Referral Source", "Channel", "Source Name"];
const SERVICE_TYPE = [
  "Service Type",
  "Service",
  "Services",
  "Service Requested",
  "Service Interest",
  "Interested In",
  "Job Type",
  "Type of Service",
];
const TAGS = ["Tags", "Tag", "Labels", "Label", "Categories", "Category", "Keywords", "Groups"];
/** Mailing addresses of contact exports: a lead's address, a customer's billing address. */
const mailing = (names: readonly string[]) => names.map((name) => `Mailing ${name}`);

const LEAD_FIELDS: readonly ImportField[] = [
  { field: "name", label: "Name", synonyms: [...FULL_NAME, "Lead Name", "Customer Name", "Client Name"] },
  { field: "first_name", label: "First name (joined into name)", synonyms: FIRST_NAME },
  { field: "last_name", label: "Last name (joined into name)", synonyms: LAST_NAME },
  { field: "email", label: "Email", synonyms: EMAIL },
  { field: "phone", label: "Phone", synonyms: PHONE },
  {
    field: "address_street1",
    label: "Street",
    synonyms: [...STREET1, "Mailing Street", "Mailing Address"],
  },
  { field: "address_street2", label: "Street, line 2", synonyms: [...STREET2, "Mailing Street 2"] },
  { field: "address_city", label: "City", synonyms: [...CITY, ...mailing(["City"])] },
  {
    field: "address_state",
    label: "State",
    synonyms: [...STATE, ...mailing(["State", "State/Province"])],
  },
  {
    field: "address_zip",
    label: "Zip code",
    synonyms: [...ZIP, ...mailing(["Zip", "Zip Code", "Postal Code", "Zip/Postal Code"])],
  },
  { field: "address_country", label: "Country", synonyms: [...COUNTRY, ...mailing(["Country"])] },
  {
    field: "priority",
    label: "Priority (low, medium, high)",
    synonyms: ["Priority", "Lead Priority", "Rating", "Lead Rating"],
  },
  {
    field: "projected_value",
    label: "Projected value",
    synonyms: [
      "Projected Value",
      "Estimated Value",
      "Est. Value",
      "Value",
      "Deal Value",
      "Lead Value",
      "Amount",
      "Deal Amount",
      "Estimated Amount",
      "Expected Revenue",
      "Expected Value",
      "Potential Value",
      "Opportunity Amount",
      "Quote Amount",
      "Budget",
    ],
  },
  { field: "service_type", label: "Service type", synonyms: SERVICE_TYPE },
  { field: "source", label: "Source", synonyms: SOURCE },
  {
    field: "stage",
    label: "Stage",
    synonyms: [
      "Stage",
      "Lead Status",
      "Status",
      "Lead Stage",
      "Pipeline Stage",
      "Deal Stage",
      "Lifecycle Stage",
      "Lead Lifecycle Stage",
    ],
  },
  {
    field: "lost_reason",
    label: "Lost reason",
    synonyms: [
      "Lost Reason",
      "Reason Lost",
      "Closed Lost Reason",
      "Lost Reason Description",
      "Disqualification Reason",
      "Unqualified Reason",
    ],
  },
  { field: "notes", label: "Notes", synonyms: [...NOTES, "Lead Notes"] },
  {
    field: "follow_up_date",
    label: "Follow-up date",
    synonyms: [
      "Follow-up Date",
      "Follow-up",
      "Followup Date",
      "Next Follow-up",
      "Next Follow-up Date",
      "Next Activity Date",
      "Next Step Date",
      "Next Contact Date",
      "Callback Date",
      "Call Back Date",
      "Reminder Date",
    ],
  },
  // Only a user id of the company: other CRMs' owner columns hold names or their own ids.
  { field: "assigned_to", label: "Assigned to (user id)", synonyms: [] },
  { field: "tags", label: "Tags (split on , or ;)", synonyms: TAGS },
  // Another CRM's "ID" is not ours: the id is mapped by hand only.
  { field: "id", label: "Lead id (updates that lead)", synonyms: [] },
];

const CUSTOMER_FIELDS: readonly ImportField[] = [
  {
    field: "name",
    label: "Full name (split into first and last name)",
    synonyms: [...FULL_NAME, "Customer Name", "Client Name", "Client", "Customer"],
  },
  { field: "first_name", label: "First name", synonyms: FIRST_NAME },
  { field: "last_name", label: "Last name", synonyms: LAST_NAME },
  {
    field: "company_name",
    label: "Company name",
    synonyms: [
      "Company",
      "Company Name",
      "Business",
      "Business Name",
      "Organization",
      "Organisation",
      "Organization Name",
      "Account Name",
      "Account",
    ],
  },
  { field: "email", label: "Email", synonyms: EMAIL },
  { field: "phone", label: "Phone", synonyms: PHONE },
  { field: "property_street1", label: "Property street", synonyms: STREET1 },
  { field: "property_street2", label: "Property street, line 2", synonyms: STREET2 },
  { field: "property_city", label: "Property city", synonyms: CITY },
  { field: "property_state", label: "Property state", synonyms: STATE },
  { field: "property_zip", label: "Property zip code", synonyms: ZIP },
  { field: "property_country", label: "Property country", synonyms: COUNTRY },
  {
    field: "billing_street1",
    label: "Billing street",
    synonyms: [
      "Billing Street",
      "Billing Street 1",
      "Billing Address",
      "Billing Address 1",
      "Billing Address Line 1",
      "Mailing Street",
      "Mailing Address",
      "Mailing Address Line 1",
    ],
  },
  {
    field: "billing_street2",
    label: "Billing street, line 2",
    synonyms: [
      "Billing Street 2",
      "Billing Address 2",
      "Billing Address Line 2",
      "Mailing Street 2",
      "Mailing Address Line 2",
    ],
  },
  { field: "billing_city", label: "Billing city", synonyms: ["Billing City", "Mailing City"] },
  {
    field: "billing_state",
    label: "Billing state",
    synonyms: [
      "Billing State",
      "Billing Province",
      "Billing State/Province",
      ...mailing(["State", "State/Province"]),
    ],
  },
  {
    field: "billing_zip",
    label: "Billing zip code",
    synonyms: [
      "Billing Zip",
      "Billing Zip Code",
      "Billing Postal Code",
      "Billing Zip/Postal Code",
      ...mailing(["Zip", "Zip Code", "Postal Code", "Zip/Postal Code"]),
    ],
  },
  { field: "billing_country", label: "Billing country", synonyms: ["Billing Country", "Mailing Country"] },
  {
    field: "billing_same_as_property",
    label: "Billing same as property (yes/no)",
    synonyms: ["Billing Same As Property", "Billing Same As Service Address", "Same As Property"],
  },
  {
    field: "service_frequency",
    label: "Service frequency",
    synonyms: ["Service Frequency", "Frequency", "Visit Frequency", "Service Interval", "Recurrence"],
  },
  { field: "service_type", label: "Service type", synonyms: SERVICE_TYPE },
  { field: "source", label: "Source", synonyms: [...SOURCE, "Customer Source", "Client Source"] },
  {
    field: "status",
    label: "Status (active, inactive)",
    synonyms: ["Status", "Customer Status", "Client Status", "Account Status"],
  },
  { field: "notes", label: "Notes", synonyms: [...NOTES, "Customer Notes", "Client Notes"] },
  { field: "tags", label: "Tags (split on , or ;)", synonyms: TAGS },
  { field: "id", label: "Customer id (updates that customer)", synonyms: [] },
];

export const IMPORT_FIELDS: Record<ImportType, readonly ImportField[]> = {
  leads: LEAD_FIELDS,
  customers: CUSTOMER_FIELDS,
};

/** Fields of which one must be mapped: without them a row can neither match nor create a record. */
export const IDENTIFYING_FIELDS: Record<ImportType, readonly string[]> = {
  leads: ["id", "name", "first_name", "last_name", "email", "phone"],
  customers: ["id", "name", "first_name", "last_name", "company_name", "email", "phone"],
};

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** A header as headers are compared: lower case, letters and digits only ("E-mail" is "email"). */
export function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(NOT_LETTER_OR_DIGIT, "");
}

/** Words other CRMs put before a field's name ("Contact Email", "Customer Status"). */
const PREFIXES = ["lead", "contact", "customer", "client", "person", "primary", "main"];

const SYNONYMS: Record<ImportType, Map<string, string>> = {
  leads: synonymIndex(LEAD_FIELDS),
  customers: synonymIndex(CUSTOMER_FIELDS),
};

function synonymIndex(fields: readonly ImportField[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const { field, synonyms } of fields)
    for (const name of synonyms) {
      const key = normalizeHeader(name);
      const known = index.get(key);
      if (known !== undefined && known !== field)
        throw new Error(`Header "${name}" is a synonym of both ${known} and ${field}`);
      index.set(key, field);
    }
  return index;
}

function guessField(type: ImportType, header: string): string | null {
  const index = SYNONYMS[type];
  const key = normalizeHeader(header);
  const found = index.get(key);
  if (found !== undefined) return found;
  for (const prefix of PREFIXES)
    if (key.startsWith(prefix) && key.length > prefix.length) {
      const field = index.get(key.slice(prefix.length));
      if (field !== undefined) return field;
    }
  return null;
}

/** The mapping guessed from the headers; a field goes to its first column only. */
export function guessMapping(type: ImportType, headers: readonly string[]): ImportMapping {
  const used = new Set<string>();
  return headers.map((header) => {
    const field = guessField(type, header);
    if (field === null || used.has(field)) return null;
    used.add(field);
    return field;
  });
}

function fieldNames(type: ImportType): string[] {
  return IMPORT_FIELDS[type].map((f) => f.field);
}

/**
 * `--map "Column=field,Other=field,Skip="`: the guess, with the named columns mapped as told (an
 * empty field ignores the column). A field given to a column is taken from any column guessed for it.
 */
export function parseMapOption(type: ImportType, headers: readonly string[], option: string): ImportMapping {
  const mapping = guessMapping(type, headers);
  const told = new Set<number>();
  for (const part of option.split(",")) {
    if (part.trim() === "") continue;
    const at = part.lastIndexOf("=");
    if (at < 0) throw new Error(`--map: "${part.trim()}" must be Column=field (or Column= to ignore it)`);
    const column = findColumn(headers, part.slice(0, at).trim());
    const field = findField(type, part.slice(at + 1).trim());
    if (told.has(column)) throw new Error(`--map: the column "${headers[column]}" is given twice`);
    told.add(column);
    if (field !== null)
      mapping.forEach((other, i) => {
        if (other === field && i !== column) {
          if (told.has(i))
            throw new Error(`--map: ${field} is given to both "${headers[i]}" and "${headers[column]}"`);
          mapping[i] = null;
        }
      });
    mapping[column] = field;
  }
  return mapping;
}

function findColumn(headers: readonly string[], name: string): number {
  const exact = headers.indexOf(name);
  if (exact >= 0) return exact;
  const key = normalizeHeader(name);
  const matches = headers.flatMap((header, i) => (normalizeHeader(header) === key ? [i] : []));
  if (matches.length === 1) return matches[0]!;
  const list = headers.map((h) => `"${h}"`).join(", ");
  if (matches.length > 1)
    throw new Error(`--map: "${name}" could be any of several columns; name one exactly (${list})`);
  throw new Error(`--map: no column is named "${name}"; the columns are ${list}`);
}

function findField(type: ImportType, name: string): string | null {
  if (name === "") return null;
  const key = normalizeHeader(name);
  const found = IMPORT_FIELDS[type].find(
    (f) => normalizeHeader(f.field) === key || normalizeHeader(f.label) === key,
  );
  if (found) return found.field;
  throw new Error(
    `--map: "${name}" is not a field of ${type}; the fields are ${fieldNames(type).join(", ")}`,
  );
}

/** What is wrong with a mapping: an unknown field, a field mapped twice, nothing that identifies a record. */
export function checkMapping(type: ImportType, mapping: ImportMapping): string[] {
  const known = new Set(fieldNames(type));
  const problems: string[] = [];
  const columns = new Map<string, number>();
  mapping.forEach((field, i) => {
    if (field === null) return;
    if (!known.has(field)) {
      problems.push(`column ${i + 1}: "${field}" is not a field of ${type}`);
      return;
    }
    const first = columns.get(field);
    if (first !== undefined)
      problems.push(`column ${i + 1}: ${field} is already mapped from column ${first + 1}`);
    else columns.set(field, i);
  });
  const identifying = IDENTIFYING_FIELDS[type];
  if (!identifying.some((field) => columns.has(field)))
    problems.push(
      `map a column to one of ${identifying.join(", ")}: a row needs one to be matched or created`,
    );
  return problems;
}
