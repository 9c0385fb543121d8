/** One payment-status webhook payload, as the mock sends it for the tests' settled payment (spec 6). */
export const examplePaymentStatus = {
  amount: 100,
  payment_gateway_fee: 1.8,
  paid_at: '2026-01-01T00:00:00.000Z',
  status: 'success',
  uuid: 'pay-1',
  metadata: { order: 'A-1' },
};
