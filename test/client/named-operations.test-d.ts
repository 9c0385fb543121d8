// Every operation of operations/ has a named client method: create-payment-client.ts fails to compile, naming the
// operation, when one has no row in its table (the check below stops compiling if that assertion is removed).
import { describe, expectTypeOf, it } from 'vitest';
import type { EveryOperationHasAMethod } from '../../src/client/create-payment-client.ts';

describe('named client methods', () => {
  it('leave no operation of operations/ without a method', () => {
    expectTypeOf<EveryOperationHasAMethod>().toBeNever();
  });
});
