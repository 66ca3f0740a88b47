/**
 * The payment links the back office created, as records (issue 24 item 3): each link a record
 * plus an entry in the 'links' list, written in one commit, and listed a page at a time, newest
 * first, with a cursor, so every link ever created can be listed (a stream of events kept only the
 * newest 100, for a day).
 */
import type { PaymentLinkView } from '../../protocol/back-office';
import { linkSucceededKind } from '../checkout';
import { CheckoutError } from '../http';
import {
  type CheckoutStore,
  checkFields,
  checkOneOf,
  createRecords,
  listed,
  put,
  recordKind,
} from '../store';

/**
 * Ten years: a link lives at the provider until the merchant deletes it, and the back office must
 * still list it (and whether it was paid) for as long as anyone may ask about it, past the usual
 * seven years of bookkeeping. The store wants a finite time-to-live; this one is "for good".
 */
export const LINK_TTL_MS = 10 * 366 * 24 * 3600 * 1000;
export const LINKS_LIST = 'links';
/** Links per page when the caller does not say. */
export const LINKS_PER_PAGE = 20;
export const MAX_LINKS_PER_PAGE = 100;

const checkLinkType = checkOneOf(['OneTime', 'Reusable'] as const);
const checkLinkFields = checkFields<PaymentLinkView>({
  alias: 'string',
  name: 'string',
  description: 'string',
  url: 'string',
  amount: 'object|null',
  linkType: 'string',
  status: 'string',
  createdAt: 'string',
});

/** A payment link created through the back office, by its alias. */
export const paymentLinkKind = recordKind<PaymentLinkView>({
  name: 'payment-link',
  ttlMs: LINK_TTL_MS,
  check: (value) => {
    const link = checkLinkFields(value);
    return link && checkLinkType(link.linkType) ? link : undefined;
  },
});

/** A page of links and the cursor of the next one (null on the last page). */
export interface LinkPage {
  readonly links: PaymentLinkView[];
  readonly next: string | null;
}

/** The cursor is the last entry's score and alias, `<score>.<alias>`: opaque to the browser. */
function cursorOf(score: number, alias: string): string {
  return `${score}.${alias}`;
}

function parseCursor(cursor: string): { score: number; key: string } {
  const dot = cursor.indexOf('.');
  const score = Number(cursor.slice(0, dot));
  const alias = cursor.slice(dot + 1);
  if (dot < 1 || !Number.isSafeInteger(score) || alias === '')
    throw new CheckoutError('invalid_request', 'after must be the cursor a page of links gave.', {
      issues: ['after must be the `next` of the previous page'],
    });
  return { score, key: paymentLinkKind.key(alias) };
}

export function createPaymentLinks(store: CheckoutStore, now: () => number) {
  const typed = createRecords(store);
  // Scores are creation times in ms, one more than the last when two fall in one ms, so that a
  // burst of links keeps its order within this process (across instances, the clock's).
  let lastScore = 0;

  return {
    /** Keeps a new link: its record and its place in the list, in one commit. */
    async add(link: PaymentLinkView): Promise<void> {
      const score = Math.max(Math.floor(now()), lastScore + 1);
      lastScore = score;
      await typed.commit([
        put(paymentLinkKind, link.alias, link),
        listed(paymentLinkKind, link.alias, LINKS_LIST, score),
      ]);
    },

    /** A page of links, newest first, after `after` (a `next` of the page before) when given. */
    async page(limit: number, after: string | null): Promise<LinkPage> {
      const entries = await store.page(LINKS_LIST, {
        limit,
        ...(after !== null ? { after: parseCursor(after) } : {}),
      });
      const links = entries.flatMap((entry) => {
        const link = paymentLinkKind.check(entry.value);
        return link ? [{ link, score: entry.score }] : [];
      });
      // The checkout marks a link paid when its payment's outcome is reported (shared store): one
      // read for the page.
      const succeeded = await typed.getMany(
        links.map(({ link }) => [linkSucceededKind, link.alias] as const),
      );
      const last = entries.at(-1);
      return {
        links: links.map(({ link }, place) =>
          link.linkType === 'OneTime' && succeeded[place] !== undefined
            ? { ...link, status: 'Paid' }
            : link,
        ),
        next:
          entries.length === limit && last
            ? cursorOf(last.score, last.key.slice(`${paymentLinkKind.name}:`.length))
            : null,
      };
    },
  };
}
