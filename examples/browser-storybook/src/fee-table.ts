import { createPaymentClient } from 'payment-contract-kit/client';

/** Where the app's payment calls go: the real service in production, the mock's address in stories and tests. */
export interface FeeTableOptions {
  baseUrl: string;
  clientId: string;
  apiKey: string;
  amount: number;
}

/** A fee table: one row per card type for `amount`, loaded from the payment service when it mounts. */
export function feeTable(options: FeeTableOptions): HTMLElement {
  const table = document.createElement('table');
  table.setAttribute('aria-busy', 'true');
  table.innerHTML = '<caption>Card fees</caption><thead><tr><th>Card</th><th>Fee</th><th>Total</th></tr></thead>';
  const body = table.createTBody();
  const client = createPaymentClient(options);
  client
    .feesFor(options.amount)
    .then((fees) => {
      for (const fee of fees) {
        const row = body.insertRow();
        for (const text of [fee.card_type, fee.fees.toFixed(2), fee.total_settlement_amount.toFixed(2)])
          row.insertCell().textContent = text;
      }
    })
    .catch((error: unknown) => {
      body.insertRow().insertCell().textContent = `Could not load the fees: ${String(error)}`;
    })
    .finally(() => table.setAttribute('aria-busy', 'false'));
  return table;
}
