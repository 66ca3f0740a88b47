/**
 * The options of `open()`, checked before anything happens: a wrong option is a clear TypeError
 * naming it, and nothing is opened.
 */
import type {
  CheckoutFailure,
  CheckoutResult,
  CheckoutStep,
  PaymentSummary,
} from '../flow/checkout-model';
import type { Channel } from '../protocol/types';
import type { CardMessages } from './channels/card/messages';
import type { Messages } from './messages';
import type { OutcomeMessages } from './outcomes/messages';
import type { QrMessages } from './qr/messages';

export interface CheckoutEvent {
  readonly type: 'step';
  readonly step: CheckoutStep['kind'];
  /** At the `paying` step: the channel being paid by. */
  readonly channel?: Channel;
}

/**
 * @example
 * Paydrop.open({
 *   endpoint: '/api/checkout',
 *   order: 'order_1042',
 *   onSuccess: (payment) => location.assign(`/thanks?ref=${payment.reference}`),
 * });
 */
export interface OpenOptions {
  /** Where the companion handler is mounted, e.g. '/api/checkout' or 'https://shop.example/api/checkout'. */
  readonly endpoint: string;
  /** Your order id; the amount is decided by your server, never here. Give `order` or `link`. */
  readonly order?: string;
  /** A payment link's alias, to pay the link through the same dialog. */
  readonly link?: string;
  /** Prefills what the provider asks about the customer. */
  readonly customer?: {
    readonly firstName?: string;
    readonly lastName?: string;
    readonly email?: string;
    readonly phone?: string;
  };
  /** BCP 47 locale for texts and amounts, e.g. 'fr' or 'en-NG'. Default: the page's language. */
  readonly locale?: string;
  /** Your own wording for any message. */
  readonly messages?: Partial<Messages & CardMessages & OutcomeMessages & QrMessages>;
  /** The payment is confirmed by the provider. */
  readonly onSuccess?: (payment: PaymentSummary) => void;
  /** The payment failed, or the checkout could not continue: `error.code` says why. */
  readonly onFailure?: (error: CheckoutFailure) => void;
  /** Closed while a payment is under way; its outcome will reach your server's hook. */
  readonly onPending?: (payment: PaymentSummary) => void;
  /** The dialog has closed, with the final result. */
  readonly onClose?: (result: CheckoutResult) => void;
  /** Every step the customer reaches, for analytics. */
  readonly onEvent?: (event: CheckoutEvent) => void;
}

const CALLBACKS = ['onSuccess', 'onFailure', 'onPending', 'onClose', 'onEvent'] as const;
const IDENTIFIER = /^[\w.:-]{1,128}$/;
function fail(message: string): never {
  throw new TypeError(`Paydrop.open: ${message}`);
}

export function checkOptions(options: unknown): OpenOptions {
  if (typeof options !== 'object' || options === null)
    fail('pass an options object, e.g. { endpoint, order }.');
  const given = options as Record<string, unknown>;
  if (typeof given.endpoint !== 'string' || given.endpoint.trim() === '') {
    fail('"endpoint" is required: the companion\'s path, e.g. "/api/checkout".');
  }
  const hasOrder = given.order !== undefined;
  const hasLink = given.link !== undefined;
  if (hasOrder === hasLink)
    fail('give "order" (your order id) or "link" (a payment link alias), not both.');
  const target = hasOrder ? 'order' : 'link';
  if (typeof given[target] !== 'string' || !IDENTIFIER.test(given[target] as string)) {
    fail(`"${target}" must be 1 to 128 letters, digits or . _ : -`);
  }
  if (given.locale !== undefined) {
    try {
      new Intl.Locale(String(given.locale));
    } catch {
      fail(`"locale" must be a language tag such as "fr-FR", not "${String(given.locale)}".`);
    }
  }
  if (given.theme !== undefined) {
    // Theming is CSS, from the page's own stylesheet: no option can inject a rule.
    fail('"theme" is set in CSS: paydrop-checkout { --paydrop-brand: #0a7d5a; }');
  }
  if (
    given.messages !== undefined &&
    (typeof given.messages !== 'object' || given.messages === null)
  ) {
    fail('"messages" must be an object of texts.');
  }
  for (const [key, text] of Object.entries((given.messages as Record<string, unknown>) ?? {})) {
    if (typeof text !== 'string') fail(`"messages.${key}" must be a string.`);
  }
  for (const name of CALLBACKS) {
    if (given[name] !== undefined && typeof given[name] !== 'function')
      fail(`"${name}" must be a function.`);
  }
  const customer = given.customer as Record<string, unknown> | undefined;
  if (customer !== undefined) {
    if (typeof customer !== 'object' || customer === null) fail('"customer" must be an object.');
    for (const [key, value] of Object.entries(customer)) {
      if (!['firstName', 'lastName', 'email', 'phone'].includes(key))
        fail(`"customer.${key}" is not a customer field.`);
      if (typeof value !== 'string') fail(`"customer.${key}" must be a string.`);
    }
  }
  return given as unknown as OpenOptions;
}
