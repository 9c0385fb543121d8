/**
 * The card accounts of one client's state: what the mock keeps of a card, its derived uid, and the per-client cap.
 *
 * Card accounts never hold the full card number or the CVV: only the masked number, card type, expiry and the
 * test-card outcome. A `card_account_uid` is derived (SHA-256 over the instance seed, client id, card number and
 * expiry), so the same card gives the same uid for the same client, also after a reset, and a different
 * one for another client.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { maskCardNumber } from '../../../contract/card-masking.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { cardOutcome, detectCardType } from '../domain/cards.ts';
import type { CardAccount, CardAccountInput } from '../domain/stored.ts';
import { uuidV4FromHex } from '../random.ts';

/** The card part of a client's state (state.ts keeps it together with the client's payments). */
export interface ClientCards {
  /** The client's card accounts by uid, in creation order: the oldest is evicted first. */
  readonly cards: Map<string, CardAccount>;
  /**
   * The client's last card and its uid: a client paying again with the same card skips the SHA-256 of
   * {@link deriveCardAccountUid}, which would otherwise run on every payment. `lastCard` is the hash's input less
   * the seed and client id (both fixed for this state), so the uid is the one the hash gives. Holds one card number
   * per client in memory (as the request being answered does), never written to a record, the journal or the log.
   */
  lastCard?: string;
  lastUid?: string;
}

/** The uid of a card for a client, through the client's last-card memo. */
export function cardUid(
  c: ClientCards,
  seed: string,
  clientId: string,
  card: CardAccountInput,
  sha256Hex: (text: string) => string,
): string {
  const key = cardKey(card);
  const uid = c.lastCard === key ? c.lastUid! : deriveCardAccountUid(sha256Hex, seed, clientId, card);
  c.lastCard = key;
  c.lastUid = uid;
  return uid;
}

/** The card account `uid` of a card for a client, as it is kept (never the card number). */
export function cardAccountOf(
  uid: string,
  o: {
    readonly clientId: string;
    readonly card: CardAccountInput;
    readonly assumptions: Pick<Assumptions, 'cardTypes'>;
  },
): CardAccount {
  const { card, clientId } = o;
  const cardType = detectCardType(card.card_number, o.assumptions.cardTypes);
  if (cardType === undefined)
    throw new Error(kitMessage('card type not detected; validate the card before storing it.'));
  return {
    card_account_uid: uid,
    clientId,
    card_type: cardType,
    masked_card_number: maskCardNumber(card.card_number),
    expiry_month: card.expiry_month,
    expiry_year: card.expiry_year,
    outcome: cardOutcome(card.card_number),
  };
}

/** A new card account `uid` of a card for a client, stored (evicting the oldest past `maxCards`). */
export function createCard(
  c: ClientCards,
  uid: string,
  o: {
    readonly clientId: string;
    readonly card: CardAccountInput;
    readonly maxCards: number;
    readonly assumptions: Pick<Assumptions, 'cardTypes'>;
  },
): CardAccount {
  const account = cardAccountOf(uid, o);
  if (c.cards.size >= o.maxCards) {
    const oldest = c.cards.keys().next().value;
    if (oldest !== undefined) c.cards.delete(oldest);
  }
  c.cards.set(uid, account);
  return account;
}

/**
 * Derives the `card_account_uid` of a card for a client: SHA-256 over the instance seed, client id, card number and
 * expiry, formatted as a version 4 uuid (so strict client-side uuid checks accept it; it is not random). The seed
 * acts as a key, so uids of one mock instance cannot be precomputed elsewhere; a one-shot hash instead of an HMAC
 * because this runs on every payment and the uid only has to be stable and unguessable in a test tool. `sha256Hex` is
 * the platform's.
 */
export function deriveCardAccountUid(
  sha256Hex: (text: string) => string,
  seed: string,
  clientId: string,
  card: CardAccountInput,
): string {
  return uuidV4FromHex(sha256Hex(`${seed}\0${clientId}\0${cardKey(card)}`), '-');
}

/** The card's part of the uid's hash input: number and expiry. The last-card memo compares it too, so one format. */
function cardKey(card: CardAccountInput): string {
  return `${card.card_number}\0${card.expiry_month}${card.expiry_year}`;
}
