/**
 * The card-account lookup of the validation: a `card_account_uid` names a card account of the asking client in the
 * mock's state, and stands in for the card's details as long as its card has not expired on the mock's clock.
 *
 * @module
 */
import { expiryProblems } from '../../domain/cards.ts';
import type { CardAccount } from '../../payments/state.ts';
import type { Walk } from './collector.ts';

/**
 * The card account of the walk's client that `uid` names, or undefined (another client's uid is unknown here).
 *
 * @example
 * const account = findCardAccount(card.card_account_uid, walk);
 */
export function findCardAccount(uid: unknown, walk: Walk): CardAccount | undefined {
  return typeof uid === 'string' ? walk.deps.state.cardAccount(walk.clientId, uid) : undefined;
}

/**
 * Whether the card behind a card account has expired on the mock's clock (valid through the end of its month).
 *
 * @example
 * if (cardAccountExpired(account, walk)) refuse();
 */
export function cardAccountExpired(account: CardAccount, walk: Walk): boolean {
  return expiryProblems(account.expiry_month, account.expiry_year, walk.deps.now()).length > 0;
}
