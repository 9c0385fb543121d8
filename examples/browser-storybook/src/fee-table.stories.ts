import type { Meta, StoryObj } from '@storybook/html-vite';
import { type FeeTableOptions, feeTable } from './fee-table.ts';
import { paymentMock } from './payment-mock.ts';

const meta = {
  title: 'Checkout/Fee table',
  render: (args) => feeTable(args),
  args: { baseUrl: paymentMock.baseUrl, clientId: 'test-client', apiKey: 'test-api-key', amount: 100 },
} satisfies Meta<FeeTableOptions>;
export default meta;

/** The fees the mock computes for 100, from the same fee table as the service's. */
export const ForOneHundred: StoryObj<FeeTableOptions> = {};

/** A larger amount: the percentage fees scale with it. */
export const ForTwoThousand: StoryObj<FeeTableOptions> = { args: { amount: 2000 } };
