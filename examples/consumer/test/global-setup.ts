// Starts the kit's mock and our webhook receiver once for the run, on free ports, and hands their URLs to the tests.
// When the run ends the mock writes which of the service's behaviours our tests exercised to pck-coverage.json;
// `npm run coverage` reports them and fails if one we rely on was never exercised.
import { startMockServer } from 'payment-contract-kit/mock';
import type { TestProject } from 'vitest/node';
import { startWebhookReceiver } from '../src/webhook-receiver.ts';
import { service } from './service.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
    receiverUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const receiver = await startWebhookReceiver({ signingKey: service.signingKey, clientId: service.clientId });
  const mock = await startMockServer({
    port: 0,
    log: false,
    webhookUrls: [`${receiver.url}/webhooks/payment-status`],
    webhookSigningKey: service.signingKey,
    coverageFile: 'pck-coverage.json',
  });
  project.provide('mockUrl', mock.url);
  project.provide('receiverUrl', receiver.url);
  return async () => {
    await mock.close();
    await receiver.close();
  };
}
