/**
 * What the browser may send. Everything it sends is checked here (types, lengths, formats);
 * unknown fields are dropped; an amount is never read from the browser at all.
 */
import * as v from 'valibot';
import { CHANNELS, passesLuhn } from '../../protocol';
import { SERVER_CHANNELS } from './channels';

const Identifier = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.regex(/^[\w.:-]+$/, 'may hold only letters, digits and . _ : -'),
  );

export const SessionInput = v.pipe(
  v.object({
    order: v.optional(Identifier(128)),
    link: v.optional(Identifier(64)),
    /**
     * The payment keys this browser was given at initiation (issue 20): the details of a payment
     * under way are shown only to the holder of its key.
     */
    paymentKeys: v.optional(
      v.pipe(
        v.array(
          v.pipe(v.string('must be strings'), v.regex(/^[0-9a-f]{64}$/, 'must be payment keys')),
          'must be a list',
        ),
        v.maxLength(10, 'must be at most 10 keys'),
      ),
    ),
  }),
  v.check(
    (input) => (input.order === undefined) !== (input.link === undefined),
    'send either "order" or "link", not both and not neither',
  ),
);

const Name = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(100, 'must be at most 100 characters'),
);

const Customer = v.object({
  firstName: v.optional(Name),
  lastName: v.optional(Name),
  email: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.maxLength(254, 'must be at most 254 characters'),
      v.email('must be an email address'),
    ),
  ),
  phone: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.regex(/^\+?[\d\s()-]{5,32}$/, 'must be a phone number'),
    ),
  ),
});

const Card = v.object({
  number: v.pipe(
    v.string('must be a string'),
    v.transform((number) => number.replace(/[\s-]/g, '')),
    v.regex(/^\d{12,19}$/, 'must be 12 to 19 digits'),
    v.check(passesLuhn, 'is not a valid card number'),
  ),
  expiryMonth: v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be 1 to 12'),
    v.maxValue(12, 'must be 1 to 12'),
  ),
  expiryYear: v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(2000, 'must be a four-digit year'),
    v.maxValue(2099, 'must be a four-digit year'),
  ),
  cvv: v.pipe(v.string('must be a string'), v.regex(/^\d{3,4}$/, 'must be 3 or 4 digits')),
  holderName: v.pipe(Name, v.minLength(1, 'must not be empty')),
});

const UnexpiredCard = v.pipe(
  Card,
  v.forward(
    v.partialCheck(
      [['expiryMonth'], ['expiryYear']],
      (card) => notExpired(card),
      'is in the past: the card has expired',
    ),
    ['expiryYear'],
  ),
);

/** A card whose expiry month has passed is refused here, not by the bank. */
function notExpired(card: { expiryMonth: number; expiryYear: number }): boolean {
  const now = new Date();
  return (
    card.expiryYear * 12 + card.expiryMonth >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1
  );
}

export const InitiateInput = v.pipe(
  v.object({
    channel: v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
    customer: v.optional(Customer),
    /** The merchant page to come back to after a full-page bank redirect. */
    returnTo: v.optional(
      v.pipe(v.string('must be a string'), v.maxLength(2048), v.url('must be an absolute URL')),
    ),
    /** False when the bank opens in a popup: its page closes itself instead of redirecting. */
    redirect: v.optional(v.boolean('must be true or false')),
  }),
  // Card details come from the card frame alone (POST /card, issue 19): a page never sends them.
  v.check(
    (input) => !SERVER_CHANNELS[input.channel].startedByCardFrame,
    (issue) =>
      `channel ${(issue.input as { channel: string }).channel} is started by the card frame (POST /card), not by the page`,
  ),
);

/** `POST /card-page`: only where to come back to after a full-page redirect. */
export const CardPageInput = v.object({
  returnTo: v.optional(
    v.pipe(v.string('must be a string'), v.maxLength(2048), v.url('must be an absolute URL')),
  ),
});

/**
 * What the card frame sends to POST /card: the card and the customer's details. It is the one
 * body that carries card data, and only the frame's document sends it.
 */
export const CardInput = v.object({
  card: UnexpiredCard,
  customer: v.optional(Customer),
});

/** Why /initiate refuses a body that carries a card, before anything else is read. */
export const CARD_ON_INITIATE_ISSUE =
  'card details are accepted only from the card frame (POST /card): the page never sends them';

/** What a payment is started with: the page's choice, and a card only from the card frame. */
export type InitiateInputValue = Omit<v.InferOutput<typeof InitiateInput>, 'channel'> & {
  readonly channel: v.InferOutput<typeof InitiateInput>['channel'];
  readonly card?: v.InferOutput<typeof CardInput>['card'] | undefined;
};

/** "field: message" texts for the `issues` of a 400. */
export function issuesOf(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.slice(0, 10).map((issue) => {
    const path = v.getDotPath(issue);
    return path ? `${path} ${issue.message}` : issue.message;
  });
}
