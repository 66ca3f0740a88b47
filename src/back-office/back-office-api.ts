/**
 * The back office's calls to its payouts handler (createPayoutsHandler), from a staff page on the
 * merchant's own origin. Same-origin cookies carry the merchant's staff login; nothing here holds
 * a key. Every answer is parsed from `unknown` once, here.
 */
import {
  BACK_OFFICE_PATHS,
  type PaymentLinkPageWire,
  type PaymentLinkRequestWire,
  type PaymentLinkView,
  type PayoutFormRequirement,
  type PayoutRequestWire,
  type PayoutResultWire,
  type PayoutView,
  type TransactionPageWire,
} from '../protocol/back-office';

/** The handler answered with an error, or not at all (`status` 0). */
export class BackOfficeError extends Error {
  override readonly name = 'BackOfficeError' as const;
  readonly status: number;
  readonly code: string;
  constructor(message: string, status: number, code: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface BackOfficeApi {
  requirements(currency: string): Promise<PayoutFormRequirement>;
  /** Resolves with the handler's verdict; throws BackOfficeError when there is none (a lost answer). */
  sendPayout(body: PayoutRequestWire): Promise<PayoutResultWire>;
  payouts(): Promise<PayoutView[]>;
  transactions(page: number, perPage: number): Promise<TransactionPageWire>;
  /** A page of payment links, newest first: the first, or the one after `after` (a `next`). */
  links(after?: string | null): Promise<PaymentLinkPageWire>;
  createLink(body: PaymentLinkRequestWire): Promise<PaymentLinkView>;
  /** The URL of the payout moves' Server-Sent Events. */
  readonly eventsUrl: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * @example const api = createBackOfficeApi('/api/back-office');
 */
export function createBackOfficeApi(
  endpoint: string,
  fetcher: typeof fetch = fetch,
): BackOfficeApi {
  const base = endpoint.replace(/\/+$/, '');

  async function call(
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetcher(`${base}${path}`, {
        credentials: 'same-origin',
        ...init,
        headers: {
          accept: 'application/json',
          ...(init?.body ? { 'content-type': 'application/json' } : {}),
        },
      });
    } catch {
      throw new BackOfficeError('The back office could not be reached.', 0, 'network');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new BackOfficeError(
        'The back office answered with something unreadable.',
        response.status,
        'network',
      );
    }
    const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    if (error) {
      throw new BackOfficeError(
        typeof error.message === 'string' ? error.message : 'The back office refused the request.',
        response.status,
        typeof error.code === 'string' ? error.code : 'internal',
      );
    }
    return { status: response.status, body };
  }

  const post = (path: string, body: unknown) =>
    call(path, { method: 'POST', body: JSON.stringify(body) });

  return {
    eventsUrl: `${base}${BACK_OFFICE_PATHS.events}`,
    async requirements(currency) {
      const { body } = await call(
        `${BACK_OFFICE_PATHS.requirements}?currency=${encodeURIComponent(currency)}`,
      );
      const list = isRecord(body) && Array.isArray(body.requirements) ? body.requirements : [];
      const first = list[0] as PayoutFormRequirement | undefined;
      if (!first || !Array.isArray(first.fields))
        throw new BackOfficeError(`No payout requirements for ${currency}.`, 200, 'invalid');
      return first;
    },
    async sendPayout(payout) {
      const { body } = await post(BACK_OFFICE_PATHS.payouts, payout);
      if (!isRecord(body) || typeof body.status !== 'string')
        throw new BackOfficeError(
          'The back office answered with something unreadable.',
          200,
          'network',
        );
      return body as unknown as PayoutResultWire;
    },
    async payouts() {
      const { body } = await call(BACK_OFFICE_PATHS.payouts);
      return isRecord(body) && Array.isArray(body.payouts) ? (body.payouts as PayoutView[]) : [];
    },
    async transactions(page, perPage) {
      const { body } = await call(
        `${BACK_OFFICE_PATHS.transactions}?page=${page}&perPage=${perPage}`,
      );
      return body as TransactionPageWire;
    },
    async links(after) {
      const { body } = await call(
        after
          ? `${BACK_OFFICE_PATHS.links}?after=${encodeURIComponent(after)}`
          : BACK_OFFICE_PATHS.links,
      );
      if (!isRecord(body) || !Array.isArray(body.links))
        throw new BackOfficeError(
          'The back office answered with something unreadable.',
          200,
          'network',
        );
      return {
        links: body.links as PaymentLinkView[],
        next: typeof body.next === 'string' ? body.next : null,
      };
    },
    async createLink(link) {
      const { body } = await post(BACK_OFFICE_PATHS.links, link);
      return (body as { link: PaymentLinkView }).link;
    },
  };
}
