// Word lists of the generated data, using the app's own stages, sources and service types so the
// dashboard's filters find them; weights set the cases' filter selectivity.

/** A list written as words separated by white space. */
const words = (text: string): readonly string[] => text.trim().split(/\s+/);

export type Weighted = readonly (readonly [string, number])[];

export const FIRST_NAMES = words(`
  James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan
  Joseph Jessica Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Betty Anthony
  Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth
  Dorothy Kevin Carol Brian Amanda George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca
  Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley
  Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha
  Samuel Katherine Gregory Christine Alexander Debra Frank Rachel Patrick Carolyn Raymond Janet Jack
  Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth Jose Julie Adam Olivia Nathan Joyce
  Henry Virginia Douglas Victoria Zachary Kelly Peter Lauren Kyle Christina Martha Marty Carlos Lucia
  Miguel Sofia Luis Camila Wei Mei Hiroshi Yuki Priya Arjun Fatima Omar Ivan Olga Liam Noah
`);

export const LAST_NAMES = words(`
  Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez
  Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark
  Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams
  Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker
  Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper
  Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James
  Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez
  Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez
  Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole
  Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens
  Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker
  Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez
`);

/**
 * A surname given to exactly ten leads and ten customers of the large tenant at every scale: the
 * "rare term" search case, which the search index should answer without scanning.
 */
export const RARE_SURNAME = "Quillfeather";
export const RARE_ROWS = 10;

/** City, state, zip prefix (3 digits), latitude, longitude. */
export const CITIES: readonly (readonly [string, string, string, number, number])[] = [
  ["Austin", "TX", "787", 30.27, -97.74],
  ["Dallas", "TX", "752", 32.78, -96.8],
  ["Houston", "TX", "770", 29.76, -95.37],
  ["San Antonio", "TX", "782", 29.42, -98.49],
  ["Phoenix", "AZ", "850", 33.45, -112.07],
  ["Tucson", "AZ", "857", 32.22, -110.97],
  ["Orlando", "FL", "328", 28.54, -81.38],
  ["Tampa", "FL", "336", 27.95, -82.46],
  ["Miami", "FL", "331", 25.76, -80.19],
  ["Jacksonville", "FL", "322", 30.33, -81.66],
  ["Atlanta", "GA", "303", 33.75, -84.39],
  ["Charlotte", "NC", "282", 35.23, -80.84],
  ["Raleigh", "NC", "276", 35.78, -78.64],
  ["Nashville", "TN", "372", 36.16, -86.78],
  ["Denver", "CO", "802", 39.74, -104.99],
  ["Las Vegas", "NV", "891", 36.17, -115.14],
  ["Sacramento", "CA", "958", 38.58, -121.49],
  ["San Diego", "CA", "921", 32.72, -117.16],
  ["Fresno", "CA", "937", 36.74, -119.79],
  ["Portland", "OR", "972", 45.52, -122.68],
  ["Seattle", "WA", "981", 47.61, -122.33],
  ["Boise", "ID", "837", 43.62, -116.2],
  ["Salt Lake City", "UT", "841", 40.76, -111.89],
  ["Kansas City", "MO", "641", 39.1, -94.58],
  ["Columbus", "OH", "432", 39.96, -83.0],
  ["Indianapolis", "IN", "462", 39.77, -86.16],
  ["Richmond", "VA", "232", 37.54, -77.44],
  ["Birmingham", "AL", "352", 33.52, -86.8],
  ["Oklahoma City", "OK", "731", 35.47, -97.52],
  ["Albuquerque", "NM", "871", 35.08, -106.65],
];

export const AREA_CODES = words(`
  512 214 713 210 602 520 407 813 305 904 404 704 919 615 303 702 916 619 559 503 206 208 801 816 614
  317 804 205 405 505
`);

export const STREETS = words(`
  Oak Maple Cedar Pine Elm Willow Birch Walnut Hickory Magnolia Sunset Lakeview Hillcrest Meadow River
  Park Spring Highland Forest Valley Main Church Mill Ridge Prairie Canyon Mesa Bluebonnet Cypress
  Aspen
`);
export const STREET_SUFFIXES = ["St", "Ave", "Rd", "Blvd", "Ln", "Dr", "Ct", "Way"] as const;

export const EMAIL_DOMAINS = [
  "gmail.com",
  "yahoo.com",
  "outlook.com",
  "icloud.com",
  "hotmail.com",
  "aol.com",
];

export const SERVICE_TYPES: Weighted = [
  ["General Pest", 28],
  ["Termite", 10],
  ["Mosquito", 10],
  ["Rodent", 7],
  ["Bed Bug", 3],
  ["Wildlife", 2],
  ["Mowing", 12],
  ["Fertilization", 10],
  ["Weed Control", 8],
  ["Aeration", 4],
  ["Landscape Maintenance", 3],
  ["Irrigation Check", 3],
];

export const LEAD_SOURCES: Weighted = [
  ["Website", 30],
  ["Door to door", 20],
  ["Referral", 15],
  ["Google Ads", 12],
  ["Phone call", 10],
  ["Yelp", 7],
  ["Facebook", 6],
];

export const LEAD_STAGES: Weighted = [
  ["new", 30],
  ["contacted", 25],
  ["quoted", 20],
  ["won", 15],
  ["lost", 10],
];

/** Each tag is given independently with its probability (per mille): a record has 0–n tags. */
export const LEAD_TAGS: Weighted = [
  ["residential", 450],
  ["commercial", 90],
  ["follow-up", 120],
  ["spring-promo", 80],
  ["newsletter", 80],
  ["referral", 60],
  ["hot", 50],
  ["repeat", 40],
  ["seasonal", 30],
  ["do-not-call", 20],
  ["high-value", 20],
  ["vip", 10],
];

export const CUSTOMER_TAGS: Weighted = [
  ["residential", 600],
  ["commercial", 150],
  ["autopay", 300],
  ["monthly-billing", 120],
  ["pet-friendly", 100],
  ["gate-code", 80],
  ["priority", 40],
  ["vip", 10],
];

export const CUSTOMER_SOURCES: Weighted = [
  ["Website", 30],
  ["Referral", 25],
  ["Door Knocking", 20],
  ["Google Ads", 15],
  ["Other", 10],
];

export const COMPANY_SUFFIXES = ["Holdings", "Properties", "Management", "LLC", "Inc.", "Apartments", "HOA"];

export const PLAN_FREQUENCIES: Weighted = [
  ["Quarterly", 30],
  ["Monthly", 20],
  ["Bi-Monthly", 12],
  ["Annual", 10],
  ["Semi-Annual", 8],
  ["Tri-Annual", 5],
  ["One-Time", 5],
  ["Bi-Weekly", 4],
  ["Weekly", 3],
  ["Custom", 3],
];

export const NOTES = [
  "Prefers morning appointments.",
  "Dog in the backyard; call before entering.",
  "Interested in a quarterly plan.",
  "Asked for a quote by email.",
  "Gate code at the front desk.",
  "Saw ants in the kitchen last week.",
  "Neighbor referral; mention the discount.",
  "Wants a follow-up after the holidays.",
];

export const LINE_ITEM_TITLES = [
  "General pest treatment",
  "Lawn fertilization",
  "Termite inspection",
  "Mosquito barrier spray",
  "Pool chemical balance",
  "HVAC tune-up",
  "Irrigation check",
  "Gutter cleaning",
  "Rodent exclusion",
  "Weed control",
];

export const PIN_TYPES: readonly (readonly [string, string])[] = [
  ["Customer", "#16a34a"],
  ["Prospect", "#2563eb"],
  ["Not Home", "#9ca3af"],
  ["Not Interested", "#dc2626"],
  ["Callback", "#f59e0b"],
  ["Sold", "#7c3aed"],
  ["Do Not Knock", "#111827"],
  ["Competitor", "#db2777"],
];
