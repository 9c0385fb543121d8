// The mock's resolver table is typed from the generated root fields (generated/root-fields.ts): a root field added to
// schema.graphql without a resolver is a compile error in resolvers.ts, not a failure when a mock starts.
import { describe, expectTypeOf, it } from 'vitest';
import type { RootFields } from '../../../../generated/root-fields.ts';
import type { MockResolvers } from '../../../support/mock-internals/graphql.ts';

type Query = MockResolvers['Query'];

describe('the resolver table', () => {
  it('has one resolver per root field of schema.graphql, and no other', () => {
    expectTypeOf<keyof MockResolvers>().toEqualTypeOf<keyof RootFields>();
    expectTypeOf<keyof MockResolvers['Query']>().toEqualTypeOf<keyof RootFields['Query']>();
    expectTypeOf<keyof MockResolvers['Mutation']>().toEqualTypeOf<keyof RootFields['Mutation']>();
  });

  it('rejects a table that leaves a root field out', () => {
    const cardFee = (() => undefined) as unknown as Query['paymentCreditCardFeeCalc'];
    // @ts-expect-error paymentGatewayFeesCalc has no resolver
    const partial: Query = { paymentCreditCardFeeCalc: cardFee };
    expectTypeOf(partial).toEqualTypeOf<Query>();
  });

  it('types arguments as the wire delivers them and answers as the schema returns them', () => {
    // The amount stays required on the wire (WireArgOverrides); other fields arrive optional and nullable (Wire<...>).
    expectTypeOf<Parameters<Query['paymentGatewayFeesCalc']>[1]>().toEqualTypeOf<{ amount: number }>();
    // A promise of it only on a shared store, where a card account is read first.
    expectTypeOf<Awaited<ReturnType<MockResolvers['Mutation']['processPaymentRequest']>>>().toEqualTypeOf<
      RootFields['Mutation']['processPaymentRequest']['result']
    >();
  });
});
