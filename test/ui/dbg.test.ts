import { it } from 'vitest';
import { startMockServer } from '../../src/mock/index.ts';
import { launchBrowser } from './support/browser.ts';

it('dbg', async () => {
  const mock = await startMockServer({ port: 0, guide: 'both', log: false });
  const b = await launchBrowser();
  const { page, problems } = await b.open();
  await page.goto(`${mock.url}/graphql`);
  await page.waitForTimeout(5000);
  await page.locator('.graphiql-tab', { hasText: 'PaymentGatewayFeesCalc' }).click();
  await page.waitForTimeout(1000);
  await page.locator('.graphiql-execute-button').click();
  await page.waitForTimeout(3000);
  console.log('RESP', await page.locator('.graphiql-response').innerText());
  console.log('TABS', await page.locator('.graphiql-tabs').innerText());
  console.log(
    'PROBLEMS',
    problems,
    mock.control.requests().map((r) => `${r.method} ${r.path} ${r.status} ${r.operationName}`),
  );
  await page.screenshot({ path: '/tmp/g.png' });
  await b.close();
  await mock.close();
}, 60000);
