// Starts the kit's mock and our webhook receiver once for the run, on free ports, and hands their URLs to the tests.
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
  });
  project.provide('mockUrl', mock.url);
  project.provide('receiverUrl', receiver.url);
  return async () => {
    await mock.close();
    await receiver.close();
  };
}
