import { createMockHandlers } from 'payment-contract-kit/msw';

/**
 * One stateful mock of the payment service for the whole Storybook: stories share its sandbox, and a story's play
 * function can drive its control handle (reset, advance the clock, inject failures).
 */
export const paymentMock = createMockHandlers({ log: false });
