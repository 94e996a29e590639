import { authPaths } from "./paths/auth";
import { customersPaths } from "./paths/customers";
import { leadsPaths } from "./paths/leads";
import { metaPaths } from "./paths/meta";
import { pinTypesPaths } from "./paths/pin-types";
import { pipelinePaths } from "./paths/pipeline";
import { pinsPaths } from "./paths/pins";
import { reportsPaths } from "./paths/reports";
import { servicedJobsPaths } from "./paths/serviced-jobs";
import { servicePlansPaths } from "./paths/service-plans";
import { sessionPaths } from "./paths/session";
import { settingsPaths } from "./paths/settings";
import { territoriesPaths } from "./paths/territories";
import { usersPaths } from "./paths/users";
import type { ResourceSpec } from "./types";

/** Every documented resource, in the order of the reference. */
export const RESOURCES: readonly ResourceSpec[] = [
  authPaths,
  leadsPaths,
  pipelinePaths,
  customersPaths,
  servicePlansPaths,
  servicedJobsPaths,
  pinsPaths,
  pinTypesPaths,
  territoriesPaths,
  usersPaths,
  reportsPaths,
  sessionPaths,
  settingsPaths,
  metaPaths,
];
