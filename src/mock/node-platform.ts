/**
 * The Node platform (one side of the seam in platform.ts): node:crypto on the token path, webhooks over node:http(s), the
 * package's own files for the published sources and the browser pages, and graphql-jit. Picked by the Node entries:
 * `createMockApp`, `startMockServer`, the CLI and `payment-contract-kit/msw` under Node.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import { packagedFilesLocation, readPackagedFile } from '../internal/package-files.ts';
import { nodeJitLoader } from './internal/graphql/jit-loader.ts';
import { nodeCrypto } from './internal/platform/node-crypto.ts';
import { createAssetStore } from './internal/ui/assets.ts';
import { registerLandingPage } from './internal/ui/landing-page.ts';
import { registerUiRoutes } from './internal/ui/routes.ts';
import { createHttpTransport } from './internal/webhooks/http-post.ts';
import type { MockPlatform } from './platform.ts';

/** Node's pieces for the mock's core. */
export const nodePlatform: MockPlatform = {
  name: 'node',
  crypto: nodeCrypto,
  createNetworkTransport: createHttpTransport,
  async readPackageFile(relative) {
    // Through the one seam for shipped files: the disk for the npm package, the assets inside the single executable.
    const bytes = readPackagedFile(relative);
    // A missing shipped file is a broken install, not a caller's mistake: the pipeline answers it as a logged 500.
    if (bytes === undefined)
      throw new Error(
        kitMessage(`${relative} was not found in ${packagedFilesLocation()}; reinstall payment-contract-kit.`),
      );
    return bytes;
  },
  registerPages(pages, deps) {
    // Behind a control token the pages are public shells: API keys stay off them.
    const clients = deps.controlTokenRequired
      ? deps.clients.map((c) => ({ ...c, apiKey: '(hidden: this mock has a control token)' }))
      : deps.clients;
    registerLandingPage(pages, { guide: deps.guide, clients });
    registerUiRoutes(pages, { ...deps, clients, assets: createAssetStore() });
  },
  monotonicNs: process.hrtime.bigint,
  jit: nodeJitLoader,
  loadGraphqlAtStart: false,
};
