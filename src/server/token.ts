/**
 * The checkout token: what the companion decided for one checkout (order, amount, currency) and,
 * once initiated, the one payment reference, signed so the browser can carry it but not change
 * it. Every call after the first must bring it; a token for one reference opens no other.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Channel } from '../protocol';
import type { CardEntry } from '../protocol/contract';

export interface CheckoutClaims {
  /** Checkout session id. */
  readonly sid: string;
  readonly orderId: string | null;
  readonly linkAlias: string | null;
  readonly amountMinor: number;
  readonly currency: string;
  readonly description: string;
  /** The channels the provider offered for this amount when the checkout started. */
  readonly channels: readonly Channel[];
  /** The page origin that opened the checkout; the only one the challenge page talks to. */
  readonly origin: string | null;
  readonly reference?: string;
  readonly channel?: Channel;
  /** Where Card is typed in this checkout (absent: the handler's default). */
  readonly cardEntry?: CardEntry;
  /** The alias of the provider's hosted card page opened for this checkout (CardPageWire). */
  readonly hosted?: string;
  /**
   * With `reference`: the holder started that payment (or showed its key), so it may see the
   * payment's account and bank link (issue 20). A token bound to a payment only to watch it
   * (a stranger opening a paid or settling order) has none.
   */
  readonly owner?: true;
  /**
   * 'frame': a ticket that only fetches the issuer's challenge markup. The markup runs in that
   * frame and can read the frame's own URL, so that URL never carries the checkout token.
   */
  readonly scope?: 'frame';
  /** Expiry, epoch seconds. */
  readonly exp: number;
}

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  } catch {
    return undefined;
  }
}

export type TokenCheck =
  | { readonly ok: true; readonly claims: CheckoutClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'bad-signature' | 'expired' };

export interface TokenSigner {
  sign(claims: CheckoutClaims): string;
  verify(token: string, nowSeconds: number): TokenCheck;
}

/** Compares every byte, whatever the first difference, so timing tells nothing. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

/**
 * HMAC-SHA256 over the claims. The key is derived from a secret with HKDF under its own label,
 * so the provider key can serve as the secret without the token ever revealing it, and every
 * instance of the companion that shares the secret accepts the others' tokens.
 *
 * `secrets` in order of age, newest first (issue 21, item 4): the first signs, every one
 * verifies, so a new secret put in front leaves the tokens of open checkouts valid until they
 * expire; a secret taken out no longer opens anything.
 *
 * Pure JavaScript (@noble/hashes) rather than crypto.subtle: it runs on every runtime, and on
 * Node 20 a WebCrypto HMAC costs about 180 µs a call against about 10 µs here, on the path of
 * every status poll.
 */
export function createTokenSigner(secrets: string | readonly string[]): TokenSigner {
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    hkdf(
      sha256,
      encoder.encode(secret),
      encoder.encode('paydrop'),
      encoder.encode('checkout-token-v1'),
      32,
    ),
  );
  const signingKey = keys[0];
  if (!signingKey) throw new TypeError('createTokenSigner needs at least one secret.');
  const mac = (key: Uint8Array, payload: string) => hmac(sha256, key, encoder.encode(payload));

  return {
    sign(claims) {
      const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
      return `${payload}.${toBase64Url(mac(signingKey, payload))}`;
    },
    verify(token, nowSeconds) {
      const [payload, signature, extra] = token.split('.');
      if (!payload || !signature || extra !== undefined || token.length > 4096) {
        return { ok: false, reason: 'malformed' };
      }
      const signatureBytes = fromBase64Url(signature);
      if (!signatureBytes) return { ok: false, reason: 'malformed' };
      if (!keys.some((key) => sameBytes(mac(key, payload), signatureBytes)))
        return { ok: false, reason: 'bad-signature' };
      let claims: CheckoutClaims;
      try {
        claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payload))) as CheckoutClaims;
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
        return { ok: false, reason: 'expired' };
      return { ok: true, claims };
    },
  };
}
