import { createPaymentClient } from 'payment-contract-kit/client';

/**
 * The app: the fees for an amount, then a test card priced and paid. Each step writes a line to `root`; the last
 * line names the payment (or the error), and `root.dataset.state` says when the flow has ended.
 */
export function mountCheckout(root: HTMLElement, service: { baseUrl: string }): void {
  const client = createPaymentClient({ ...service, clientId: 'test-client', apiKey: 'test-api-key' });
  const say = (text: string) => root.append(Object.assign(document.createElement('p'), { textContent: text }));
  const credit_card = {
    full_name: 'Ada L',
    card_number: '4111111111111111',
    expiry_month: '12',
    expiry_year: '39',
    cvv: '123',
  };
  const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  root.dataset.state = 'loading';
  (async () => {
    const fees = await client.feesFor(100);
    say(`fees: ${fees.map((f) => `${f.card_type} ${f.fees}`).join(', ')}`);
    const priced = await client.cardFee({ amount: 100, credit_card, contact });
    say(`card fee: ${priced.fees}`);
    const payment = await client.processPayment({
      amount: 100,
      fees: priced.fees,
      credit_card,
      contact,
      payment_reference: { description: 'Order 42', reference_no: 'ORD-42' },
    });
    say(`payment: ${payment.uuid} ${payment.status.name}`);
  })()
    .catch((error: unknown) => say(`error: ${String(error)}`))
    .finally(() => {
      root.dataset.state = 'done';
    });
}
