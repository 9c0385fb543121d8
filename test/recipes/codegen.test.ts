// The codegen recipe as a team runs it: @graphql-codegen/cli on the kit's shipped schema.graphql in a project of its
// own, then a strict tsc over code that pays with only `{ card_account_uid }`, then that code against the mock.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer, testCards } from '../../src/mock/index.ts';
import { defaultCredentials } from '../../src/spec-names.ts';
import { ensureBuilt, root, run } from '../package/support/packed-kit.ts';
import { credentials, loadRecipe } from './support.ts';

/** What recipes/codegen/pay-from-card-account.ts exports (its types exist only after codegen, in the temp project). */
interface CodegenRecipe {
  payFromCardAccount(url: string, token: string, cardAccountUid: string, fees: number): Promise<unknown>;
}
type OpenapiFetchRecipe = typeof import('../../recipes/openapi-fetch.ts');

let project = '';
let mock: MockServer | undefined;

beforeAll(async () => {
  await ensureBuilt();
  project = await mkdtemp(join(tmpdir(), 'pck-codegen-'));
  for (const entry of ['codegen.ts', 'pay-from-card-account.ts', 'operations'])
    await cp(join(root, 'recipes/codegen', entry), join(project, entry), { recursive: true });
  // The project's node_modules: the kit itself (built, with its shipped schema.graphql) and the repository's tools.
  await mkdir(join(project, 'node_modules'));
  for (const name of await readdir(join(root, 'node_modules')))
    await symlink(join(root, 'node_modules', name), join(project, 'node_modules', name));
  await symlink(root, join(project, 'node_modules/payment-contract-kit'));
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...{ target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', types: [] },
        ...{ strict: true, noUncheckedIndexedAccess: true, allowImportingTsExtensions: true, noEmit: true },
        // As most projects have it: codegen.ts pulls in the CLI's own declarations, which need newer libs.
        skipLibCheck: true,
      },
      include: ['*.ts', 'generated/*.ts'],
    }),
  );
  await run('npx', ['graphql-codegen', '--config', 'codegen.ts'], project);
}, 180_000);

afterAll(async () => {
  await mock?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('codegen recipe', () => {
  it('generates operation types that take their inputs from the kit', async () => {
    const generated = await readFile(join(project, 'generated/graphql.ts'), 'utf8');
    expect(generated).toContain("import type * as Types from 'payment-contract-kit';");
    expect(generated).toMatch(
      /PayFromCardAccountMutationVariables = Types\.Exact<\{\s+input: Types\.ProcessPaymentRequestInput;/,
    );
    // No input type of its own: one generated from the SDL would demand the full card.
    expect(generated).not.toMatch(/CreditCardInput = \{/);
  });

  it('type-checks a payment with only { card_account_uid } under strict, and still refuses the wrong cards', async () => {
    // The recipe's own @ts-expect-error lines fail this run if any of the refused cards became accepted.
    await run('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  }, 120_000);

  it('runs the generated document against the mock', async () => {
    mock = await startMockServer({ port: 0, log: false });
    const cardAccount = mock.control.registerCardAccount(defaultCredentials.clientId, {
      card_number: testCards.visaSuccess.number,
      expiry_month: '12',
      expiry_year: '39',
    });
    const { generateToken } = await loadRecipe<OpenapiFetchRecipe>('openapi-fetch');
    const token = await generateToken(mock.url, credentials);
    const { payFromCardAccount } = (await import(join(project, 'pay-from-card-account.ts'))) as CodegenRecipe;
    const payment = await payFromCardAccount(`${mock.url}/graphql`, token, cardAccount, 1.8);
    expect(payment).toMatchObject({ amount: 100, status: { name: defaultAssumptions.statusNames.processing } });
    expect((await mock.control.requests()).at(-1)).toMatchObject({ operationName: 'PayFromCardAccount', status: 200 });
  });
});
