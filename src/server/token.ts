/**
 * The checkout token: what the companion decided for one checkout (order, amount, currency) and,
 * once initiated, the one payment reference, signed so the browser can carry it but not change
 * it. Every call after the first must bring it; a token for one reference opens no other.
 */
import type { Channel } from '../protocol';

export interface CheckoutClaims {
  /** Checkout session id. */
  readonly sid: string;
  readonly orderId: string | null;
  readonly linkAlias: string | null;
  readonly amountMinor: number;
  readonly currency: string;
  readonly description: string;
  /** The page origin that opened the checkout; the only one the challenge page talks to. */
  readonly origin: string | null;
  readonly reference?: string;
  readonly channel?: Channel;
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
  sign(claims: CheckoutClaims): Promise<string>;
  verify(token: string, nowSeconds: number): Promise<TokenCheck>;
}

/**
 * HMAC-SHA256 over the claims. The key is derived from `secret` with HKDF under its own label,
 * so the provider key can serve as the secret without the token ever revealing it, and every
 * instance of the companion that shares the key accepts the others' tokens.
 */
export function createTokenSigner(secret: string): TokenSigner {
  const key = (async () => {
    const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, [
      'deriveKey',
    ]);
    return crypto.subtle.deriveKey(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: encoder.encode('paydrop'),
        info: encoder.encode('checkout-token-v1'),
      },
      material,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign', 'verify'],
    );
  })();

  return {
    async sign(claims) {
      const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
      const signature = new Uint8Array(
        await crypto.subtle.sign('HMAC', await key, encoder.encode(payload)),
      );
      return `${payload}.${toBase64Url(signature)}`;
    },
    async verify(token, nowSeconds) {
      const [payload, signature, extra] = token.split('.');
      if (!payload || !signature || extra !== undefined || token.length > 4096) {
        return { ok: false, reason: 'malformed' };
      }
      const signatureBytes = fromBase64Url(signature);
      if (!signatureBytes) return { ok: false, reason: 'malformed' };
      // crypto.subtle.verify compares in constant time.
      const valid = await crypto.subtle.verify(
        'HMAC',
        await key,
        signatureBytes,
        encoder.encode(payload),
      );
      if (!valid) return { ok: false, reason: 'bad-signature' };
      const json = fromBase64Url(payload);
      let claims: CheckoutClaims;
      try {
        claims = JSON.parse(new TextDecoder().decode(json)) as CheckoutClaims;
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
        return { ok: false, reason: 'expired' };
      return { ok: true, claims };
    },
  };
}
