/**
 * The problem collector of the 7.3 validation: dotted input path → messages, and the walk that carries it through
 * one request together with what the rules found on the way (the card account, the card type, the expected fee).
 *
 * @module
 */
import type { Assumptions } from '../../../../assumptions.ts';
import type { FeeCalculator } from '../../domain/fees.ts';
import type { CardAccount, Guide, MockState } from '../../payments/state.ts';

/** Dotted input path → messages (the `extensions.validation` object of spec 7.3). */
export type Problems = Record<string, string[]>;

/** What the validator reads besides the request. */
/** The card-account lookup of the validation: the mock's state, or an account read ahead of it (a shared store). */
export type CardLookup = Pick<MockState, 'cardAccount'>;

/** What a validation reads besides its input. */
export interface ValidationDeps {
  readonly assumptions: Assumptions;
  /** Where a `card_account_uid` is looked up. */
  readonly state: CardLookup;
  readonly fees: FeeCalculator;
  /** Mock clock, for expiry checks. */
  now(): number;
}

/**
 * One validation of one request: who asks, in which guide, the problems so far and the facts the rules found.
 * Created per request; the rules write `account`, `cardType` and `expectedFee` so later rules and the validators
 * need not look them up again.
 */
export interface Walk {
  readonly deps: ValidationDeps;
  readonly guide: Guide;
  readonly clientId: string;
  /** Whether the operation refuses the test card the service rejects (payments, card validation; not pricing). */
  readonly rejectsTestCards: boolean;
  /** Undefined until the first problem, so a valid request allocates no problems object. */
  problems: Problems | undefined;
  /** Bit per table field that has reported: a field's later rules are skipped (one message per rule chain). */
  reported: number;
  /** The card account named by `card_account_uid`, once found. */
  account: CardAccount | undefined;
  /** The card type of a card number that passed the card-number rules. */
  cardType: string | undefined;
  /** The calculated fee, once a sent fee was found not to match it (for the message). */
  expectedFee: number;
  /** The field on which a well-formed expiry is in the past ('' when it is not), once compared with the clock. */
  expiredOn: 'expiry_month' | 'expiry_year' | '' | undefined;
}

/**
 * Starts the walk of one request.
 *
 * @example
 * const walk = startWalk(deps, 'current', 'test-client', true, undefined);
 */
export function startWalk(
  deps: ValidationDeps,
  guide: Guide,
  clientId: string,
  rejectsTestCards: boolean,
  problems: Problems | undefined,
): Walk {
  return {
    deps,
    guide,
    clientId,
    rejectsTestCards,
    problems,
    reported: 0,
    account: undefined,
    cardType: undefined,
    expectedFee: 0,
    expiredOn: undefined,
  };
}

/**
 * Adds one message at a path, creating the problems object on first use.
 *
 * @example
 * problems = addProblem(problems, 'input.amount', 'The input.amount must be a number.');
 */
export function addProblem(problems: Problems | undefined, path: string, message: string): Problems {
  const out = problems ?? {};
  const list = out[path];
  if (list) list.push(message);
  else out[path] = [message];
  return out;
}

/**
 * Whether a value counts as given: not undefined, null, or an empty (blank) string.
 *
 * @example
 * isPresent('  '); // false
 */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'string') return true;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 32) return true;
  return false;
}

/**
 * Whether a value is a given string (not blank): the values the format rules of strings look at.
 *
 * @example
 * if (isGivenText(card.cvv)) checkDigits(card.cvv);
 */
export function isGivenText(value: unknown): value is string {
  return typeof value === 'string' && isPresent(value);
}
