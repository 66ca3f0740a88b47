/**
 * What the page and the card frame say to each other (CONVENTIONS 16 and 20), written once for
 * both sides. The frame is a document the companion serves with an opaque origin; the page learns
 * from it only what drawing the form needs: the brand, which fields are complete, the last four
 * digits, the frame's height, and what became of a submission. No number, expiry or security code
 * is ever part of a message: there is no field to put one in.
 */
import type { CardBrand } from './card-input';

/** Marks every message of the card frame's conversation; anything else is somebody else's. */
export const CARD_FRAME_TAG = 'paydrop:card-frame';

/** Where the frame document is, under the companion's base path. */
export const CARD_FRAME_PATH = '/card-frame';
/** Where the frame sends the card: the only companion route that takes one. */
export const CARD_PATH = '/card';

/** The frame's fragment parameters (a fragment never reaches a server or a Referer). */
export const CARD_FRAME_PARAMS = {
  token: 'token',
  secret: 'secret',
  origin: 'origin',
  locale: 'locale',
} as const;

/** The theme values the page may pass; each is checked by `checkTheme` before it is applied. */
export const CARD_FRAME_THEME_KEYS = ['brand', 'radius', 'font', 'text', 'background'] as const;
export type CardFrameThemeKey = (typeof CARD_FRAME_THEME_KEYS)[number];
export type CardFrameTheme = Partial<Record<CardFrameThemeKey, string>>;

const HEX = /^#(?:[\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/i;
const NUMBER = String.raw`\d{1,3}(?:\.\d+)?%?`;
const RGB = new RegExp(
  String.raw`^rgba?\(\s*${NUMBER}(?:\s*,\s*|\s+)${NUMBER}(?:\s*,\s*|\s+)${NUMBER}(?:\s*[,/]\s*(?:0|1|0?\.\d+|${NUMBER}))?\s*\)$`,
  'i',
);
const RADIUS = /^\d{1,2}(?:\.\d{1,2})?px$/;
/** Family names and generic families, comma-separated, optionally quoted: nothing else of CSS. */
const FONT =
  /^(?:\s*(?:"[\w -]{1,40}"|'[\w -]{1,40}'|[a-z][\w -]{0,40})\s*,)*\s*(?:"[\w -]{1,40}"|'[\w -]{1,40}'|[a-z][\w -]{0,40})\s*$/i;

/**
 * The theme values that pass: colours only as hex or rgb()/rgba(), the radius in px (below
 * 100), the font as a list of family names. Anything else is dropped, so nothing a page passes
 * can carry a url(), an expression or a second declaration into the frame.
 * @example checkTheme({ brand: '#0a7d5a', radius: '8px', font: 'url(x)' }) // { brand: '#0a7d5a', radius: '8px' }
 */
export function checkTheme(given: unknown): CardFrameTheme {
  const theme: CardFrameTheme = {};
  if (!given || typeof given !== 'object') return theme;
  const values = given as Record<string, unknown>;
  for (const key of CARD_FRAME_THEME_KEYS) {
    const value = typeof values[key] === 'string' ? (values[key] as string).trim() : '';
    if (value === '' || value.length > 200) continue;
    const ok =
      key === 'radius'
        ? RADIUS.test(value)
        : key === 'font'
          ? FONT.test(value)
          : HEX.test(value) || RGB.test(value);
    if (ok) theme[key] = value;
  }
  return theme;
}

/** A field as the page may know it. */
export type CardFieldState = 'empty' | 'complete' | 'invalid';

/** The companion's refusal of the card, as the frame passes it on: its code and words only. */
export interface CardFrameRefusal {
  readonly status: number;
  /** The companion's error body (`{ error: { code, message, issues?, ... }, payment?, token? }`). */
  readonly body: unknown;
}

/** What became of a submission. */
export type CardFrameResult =
  /** The companion started the payment: the widget follows it with this token. */
  | { readonly kind: 'started'; readonly body: unknown }
  /** The fields did not pass the frame's own checks; the frame shows why and took the focus. */
  | { readonly kind: 'invalid' }
  /** The companion refused (400 with issues, 409 with an earlier payment, 429...). */
  | { readonly kind: 'refused'; readonly refusal: CardFrameRefusal }
  /** No answer came. */
  | { readonly kind: 'network' };

/** Frame → page. */
export type CardFrameEvent =
  | { readonly type: 'ready' }
  | {
      readonly type: 'state';
      readonly brand: CardBrand | null;
      readonly fields: Readonly<Record<'number' | 'expiry' | 'cvc' | 'name', CardFieldState>>;
      /** The number's last four digits once the number is complete, else null. */
      readonly last4: string | null;
    }
  | { readonly type: 'height'; readonly height: number }
  /** Enter was pressed in a field: the page submits as its Pay button would. */
  | { readonly type: 'submit-request' }
  | { readonly type: 'result'; readonly result: CardFrameResult };

/** Page → frame. */
export type CardFrameCommand =
  | {
      readonly type: 'submit';
      /** The customer's details the merchant passed to open() (no card data). */
      readonly customer?: unknown;
    }
  | { readonly type: 'focus' }
  | { readonly type: 'theme'; readonly theme: CardFrameTheme };

/** A message as it travels: the tag, the per-frame secret, and one event or command. */
export type CardFrameMessage<T> = T & {
  readonly tag: typeof CARD_FRAME_TAG;
  readonly secret: string;
};

/**
 * Whether a message event is one of this frame's conversation: from the expected window and
 * origin (the frame's is the string "null": opaque, so the window and the secret decide) and
 * carrying this frame's secret. Adyen's secured fields check the same three things
 * (postMessageValidation.ts).
 */
export function isCardFrameMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  expected: { readonly origin: string; readonly source: unknown; readonly secret: string },
): boolean {
  if (!expected.source || event.source !== expected.source) return false;
  if (event.origin !== expected.origin) return false;
  const data = event.data as { tag?: unknown; secret?: unknown; type?: unknown } | null;
  return (
    typeof data === 'object' &&
    data !== null &&
    data.tag === CARD_FRAME_TAG &&
    typeof data.secret === 'string' &&
    expected.secret.length >= 16 &&
    data.secret === expected.secret &&
    typeof data.type === 'string'
  );
}
