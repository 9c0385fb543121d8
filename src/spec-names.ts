/**
 * The service's names, kept at this path for the modules and tests that import it. The vocabulary itself lives in
 * `src/contract/service-names.ts` (issue 24: one contract layer under every part).
 *
 * @module
 */
export {
  controlPrefix,
  credentialHeaders,
  defaultCredentials,
  pactControlPaths,
  serviceHeaders,
  servicePaths,
} from './contract/service-names.ts';
