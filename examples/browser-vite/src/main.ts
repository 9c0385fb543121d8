import { setupWorker } from 'msw/browser';
import { createMockHandlers } from 'payment-contract-kit/msw';
import { mountCheckout } from './checkout.ts';

if (import.meta.env.DEV) {
  const mock = createMockHandlers({ baseUrl: 'http://localhost:4010', log: false });
  await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
  Object.assign(window, { paymentMock: mock.control }); // drive the clock from the console: paymentMock.advanceClock(5000)
}
// Then mount the app: its payment calls to http://localhost:4010 are answered in the page.
mountCheckout(document.querySelector('#app')!, { baseUrl: 'http://localhost:4010' });
