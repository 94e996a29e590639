import { authPaths } from "./paths/auth";
import { customersPaths } from "./paths/customers";
import { leadsPaths } from "./paths/leads";
import { metaPaths } from "./paths/meta";
import type { ResourceSpec } from "./types";

/** Every documented resource, in the order of the reference. */
export const RESOURCES: readonly ResourceSpec[] = [authPaths, leadsPaths, customersPaths, metaPaths];
