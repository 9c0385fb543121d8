import type { Preview } from '@storybook/html-vite';
import type {} from 'msw-storybook-addon/types';
import { paymentMock } from '../src/payment-mock.ts';

const preview: Preview = {
  // Runs after the addon's own beforeEach, which has started the worker and put it on the context as `msw`. Every
  // story gets the kit's handlers; a story's own beforeEach can `msw.use(...)` an override in front of them.
  beforeEach({ msw }) {
    msw.use(...paymentMock.handlers);
  },
};
export default preview;
