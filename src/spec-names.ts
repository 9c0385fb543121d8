/**
 * The service's names, kept at this path for the modules and tests that import it. The vocabulary itself lives in
 * `src/contract/service-names.ts`: one contract layer under every part, so the mock, the checker and the Pact
 * matchers cannot disagree on a name (decision 0020).
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
