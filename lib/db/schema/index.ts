export * from "./companies";
export * from "./users";
export * from "./api-keys";
export * from "./leads";
export * from "./customers";
export * from "./service-plans";
export * from "./jobs";
export * from "./pins";
