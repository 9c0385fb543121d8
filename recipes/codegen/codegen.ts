// Recipe: your own GraphQL Code Generator run on the kit's schema, keeping the "card details or card_account_uid"
// choice. GraphQL cannot say "these five fields, or that one" (the schema marks them `@serverRequired`), so types
// generated from the SDL alone always demand the full card. Instead, typescript-operations types your operations
// and takes every input and scalar type from the kit (`namespacedImportName`), whose `CreditCardInput` is the union
// of full details and `{ card_account_uid }`. No `typescript` plugin: the kit's types stand in for its output.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  overwrite: true,
  silent: true,
  schema: 'node_modules/payment-contract-kit/schema.graphql',
  documents: 'operations/*.graphql',
  generates: {
    'generated/graphql.ts': {
      plugins: [
        { add: { content: "import type * as Types from 'payment-contract-kit';" } },
        'typescript-operations',
        'typed-document-node',
      ],
      config: {
        namespacedImportName: 'Types',
        useTypeImports: true,
        // Every scalar mapped, so none silently becomes `any`; the kit's JSON scalar is an object of unknowns.
        strictScalars: true,
        scalars: { JSON: '{ [key: string]: unknown }' },
        skipTypename: true,
      },
    },
  },
};

export default config;
