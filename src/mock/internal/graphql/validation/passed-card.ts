/**
 * The card a walk let through: the card account its `card_account_uid` named, or the raw details. Read only once the
 * walk reported no problem, when every rule of the card has passed.
 *
 * @module
 */
import { cardNumberField } from '../../../../contract/guides.ts';
import { isPlainObject } from '../../../../internal/plain-object.ts';
import { type CardOutcome, cardOutcome } from '../../domain/test-cards.ts';
import type { CardAccount, CardAccountInput } from '../../payments/state.ts';
import { isGivenText, isPresent, type Walk } from './collector.ts';

/** A card that passed validation: from a known card account, or from raw details. */
export interface ValidatedCard {
  readonly card_type: string;
  readonly outcome: CardOutcome;
  /** The card account, when the request named one by `card_account_uid`. */
  readonly account: CardAccount | undefined;
  /** The raw details (no CVV), when the request sent them. */
  readonly details: CardAccountInput | undefined;
}

/**
 * The card type of the card input `card` once its rules passed, or undefined when the card is not usable (not an
 * object, or a detail missing; those are reported as required). Valid only while the walk has no problems.
 *
 * @example
 * const cardType = passedCardType(input.credit_card, walk);
 */
export function passedCardType(card: unknown, walk: Walk): string | undefined {
  if (!isPlainObject(card)) return undefined;
  if (isPresent(card.card_account_uid)) return walk.account?.card_type;
  const detailsGiven =
    isGivenText(card[cardNumberField[walk.guide]]) &&
    isGivenText(card.expiry_month) &&
    isGivenText(card.expiry_year) &&
    isGivenText(card.cvv);
  return detailsGiven ? walk.cardType : undefined;
}

/**
 * The card input `card` as a {@link ValidatedCard}, or undefined when it is not usable. Valid only while the walk has
 * no problems.
 *
 * @example
 * const card = walk.problems ? undefined : passedCard(input.credit_card, walk);
 */
export function passedCard(card: unknown, walk: Walk): ValidatedCard | undefined {
  const cardType = passedCardType(card, walk);
  if (cardType === undefined || !isPlainObject(card)) return undefined;
  const account = walk.account;
  if (isPresent(card.card_account_uid) && account)
    return { card_type: cardType, outcome: account.outcome, account, details: undefined };
  const number = card[cardNumberField[walk.guide]] as string;
  return {
    card_type: cardType,
    outcome: cardOutcome(number),
    account: undefined,
    details: {
      card_number: number,
      expiry_month: card.expiry_month as string,
      expiry_year: card.expiry_year as string,
    },
  };
}
