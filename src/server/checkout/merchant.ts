/**
 * Who the customer is paying (issue 23): the companion's `merchant` option, checked once at
 * start-up, and what of it the widget is sent with every checkout. The brand colour goes out
 * only for the schemes where it keeps WCAG 2.2's contrast, computed here so the widget carries
 * no colour maths: white text on it (the primary button) at 4.5:1 (1.4.3) and the colour against
 * the dialog's panel at 3:1 (1.4.11, the focus ring). Elsewhere the widget's own blue stays.
 */
import type { MerchantWire } from '../../protocol/contract';
import { isSafeUrl } from '../../protocol/url';

/**
 * The merchant as the checkout shows it at the top: the name customers know the shop by, and
 * optionally a logo and a brand colour.
 * @example merchant: { name: 'Adire & Co.', logoUrl: 'https://shop.example/logo.svg', brandColor: '#0a7d5a' }
 */
export interface MerchantOptions {
  /** 1 to 80 characters, shown as text beside the logo. */
  readonly name: string;
  /**
   * An image shown beside the name (decorative: the name says who it is). https:, or http: on
   * localhost; your page's CSP must allow it in `img-src`.
   */
  readonly logoUrl?: string | undefined;
  /**
   * `#rrggbb`, for the primary button and the focus ring, in each scheme (light, dark) where it
   * keeps its contrast: white text on it at 4.5:1, and 3:1 against the dialog. Where it does
   * not, the checkout keeps its own colour. A `--paydrop-brand` in your stylesheet wins over it.
   */
  readonly brandColor?: string | undefined;
}

const KEYS = ['name', 'logoUrl', 'brandColor'];
/** The dialog's default panels (src/widget/styles.css). */
const LIGHT_PANEL = '#ffffff';
const DARK_PANEL = '#161b24';

/** Relative luminance of a #rrggbb colour, as WCAG 2.2 defines it. */
function luminance(hex: string): number {
  const weights = [0.2126, 0.7152, 0.0722];
  return weights.reduce((sum, weight, index) => {
    const c = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255;
    return sum + weight * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }, 0);
}

/** WCAG 2.2 contrast ratio of two #rrggbb colours. */
export function contrastRatio(one: string, other: string): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

function usableOn(color: string, panel: string): boolean {
  return contrastRatio(color, '#ffffff') >= 4.5 && contrastRatio(color, panel) >= 3;
}

/**
 * The `merchant` option checked, as the widget is sent it; undefined when not given. Throws a
 * TypeError naming what is wrong.
 */
export function checkMerchant(value: unknown): MerchantWire | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(
      "merchant must be an object such as { name: 'Adire & Co.', logoUrl?: 'https://…', brandColor?: '#0a7d5a' }.",
    );
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) {
    throw new TypeError(
      `merchant has an unknown key "${unknown}": it takes name, logoUrl and brandColor.`,
    );
  }
  const { name, logoUrl, brandColor } = given;
  if (typeof name !== 'string' || name.trim().length < 1 || name.trim().length > 80) {
    throw new TypeError(
      'merchant.name must be the name customers know your shop by, 1 to 80 characters.',
    );
  }
  if (logoUrl !== undefined && (typeof logoUrl !== 'string' || !isSafeUrl(logoUrl))) {
    throw new TypeError(
      `merchant.logoUrl must be an https: URL of your logo (http: only on localhost), not ${JSON.stringify(logoUrl)}.`,
    );
  }
  if (
    brandColor !== undefined &&
    (typeof brandColor !== 'string' || !/^#[0-9a-f]{6}$/i.test(brandColor))
  ) {
    throw new TypeError(
      `merchant.brandColor must be a colour written #rrggbb, such as #0a7d5a, not ${JSON.stringify(brandColor)}.`,
    );
  }
  const color = brandColor?.toLowerCase();
  return {
    name: name.trim(),
    ...(logoUrl ? { logoUrl } : {}),
    ...(color && usableOn(color, LIGHT_PANEL) ? { brandColor: color } : {}),
    ...(color && usableOn(color, DARK_PANEL) ? { brandColorDark: color } : {}),
  };
}
