/**
 * The options of `open()`, checked before anything happens: a wrong option is a clear TypeError
 * naming it, and nothing is opened.
 */
import type { CheckoutResult, CheckoutStep, PaymentSummary } from '../flow/checkout-model';
import type { Messages } from './messages';

export interface CheckoutTheme {
  /** The brand colour of buttons and focus rings, e.g. '#0a7d5a'. */
  readonly brandColor?: string;
  /** Corner radius of the dialog, e.g. '12px'. */
  readonly radius?: string;
  /** Font family, e.g. 'Inter, system-ui, sans-serif'. */
  readonly fontFamily?: string;
}

export interface CheckoutEvent {
  readonly type: 'step';
  readonly step: CheckoutStep['kind'];
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
  readonly theme?: CheckoutTheme;
  /** Your own wording for any message. */
  readonly messages?: Partial<Messages>;
  /** The payment is confirmed by the provider. */
  readonly onSuccess?: (payment: PaymentSummary) => void;
  /** The payment failed, or the checkout could not continue. */
  readonly onFailure?: (error: { code: string; message: string }) => void;
  /** Closed while a payment is under way; its outcome will reach your server's hook. */
  readonly onPending?: (payment: PaymentSummary) => void;
  /** The dialog has closed, with the final result. */
  readonly onClose?: (result: CheckoutResult) => void;
  /** Every step the customer reaches, for analytics. */
  readonly onEvent?: (event: CheckoutEvent) => void;
}

const CALLBACKS = ['onSuccess', 'onFailure', 'onPending', 'onClose', 'onEvent'] as const;
const IDENTIFIER = /^[\w.:-]{1,128}$/;
const COLOR = /^(#[\da-f]{3,8}|(rgb|hsl)a?\([\d\s.,%/]+\)|[a-z]{3,20})$/i;
const LENGTH = /^\d{1,3}(\.\d+)?(px|rem|em|%)$/;
const FONT = /^[\w\s,"'-]{1,120}$/;

function fail(message: string): never {
  throw new TypeError(`Paydrop.open: ${message}`);
}

export function checkOptions(options: unknown): OpenOptions {
  if (typeof options !== 'object' || options === null)
    fail('pass an options object, e.g. { endpoint, order }.');
  const given = options as Record<string, unknown>;
  if (typeof given.endpoint !== 'string' || given.endpoint.trim() === '') {
    fail('"endpoint" is required: where your companion handler is mounted, e.g. "/api/checkout".');
  }
  const hasOrder = given.order !== undefined;
  const hasLink = given.link !== undefined;
  if (hasOrder === hasLink)
    fail('give either "order" (your order id) or "link" (a payment link alias), not both.');
  const target = hasOrder ? 'order' : 'link';
  if (typeof given[target] !== 'string' || !IDENTIFIER.test(given[target] as string)) {
    fail(`"${target}" must be 1 to 128 letters, digits or . _ : -`);
  }
  if (given.locale !== undefined) {
    try {
      new Intl.Locale(String(given.locale));
    } catch {
      fail(
        `"locale" must be a language tag such as "en" or "fr-FR", not "${String(given.locale)}".`,
      );
    }
  }
  const theme = given.theme as Record<string, unknown> | undefined;
  if (theme !== undefined) {
    if (typeof theme !== 'object' || theme === null) fail('"theme" must be an object.');
    if (theme.brandColor !== undefined && !COLOR.test(String(theme.brandColor)))
      fail('"theme.brandColor" must be a CSS colour such as "#0a7d5a".');
    if (theme.radius !== undefined && !LENGTH.test(String(theme.radius)))
      fail('"theme.radius" must be a CSS length such as "12px".');
    if (theme.fontFamily !== undefined && !FONT.test(String(theme.fontFamily)))
      fail('"theme.fontFamily" must be a font list such as "Inter, sans-serif".');
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

/** The theme as CSS for the shadow root; values were checked above, so they cannot break out. */
export function themeCss(theme: CheckoutTheme | undefined): string {
  if (!theme) return '';
  const rules = [
    theme.brandColor ? `--paydrop-brand: ${theme.brandColor};` : '',
    theme.radius ? `--paydrop-radius: ${theme.radius};` : '',
    theme.fontFamily ? `--paydrop-font: ${theme.fontFamily};` : '',
  ].join(' ');
  return `:host { ${rules} }`;
}
