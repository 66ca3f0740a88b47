/**
 * The checkout token: what the companion decided for one checkout (order, amount, currency) and,
 * once initiated, the one payment reference, signed so the browser can carry it but not change
 * it. Every call after the first must bring it; a token for one reference opens no other.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Channel } from '../../protocol';
import type { CardEntry } from '../../protocol/contract';

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
const decoder = new TextDecoder();

// base64url by table, a loop over the bytes: `Uint8Array.from(atob(…), fn)` cost 18 µs of a
// 34 µs verification, a call of `fn` per byte (issue 25).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The character code of each 6-bit value. */
const CODES = Uint8Array.from(ALPHABET, (character) => character.charCodeAt(0));
/** The 6-bit value of each base64url character code below 128; -1 for any other. */
const SEXTETS = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) SEXTETS[ALPHABET.charCodeAt(index)] = index;

/**
 * Unpadded base64url of `bytes`. The characters are written as bytes into `into` (or a buffer of
 * their own when it is too short) and decoded once: building the text a character at a time, by
 * string concatenation, was most of the cost of signing a token (issue 25).
 */
function toBase64Url(bytes: Uint8Array, into: Uint8Array): string {
  const size = Math.ceil((bytes.length * 4) / 3);
  const out = size <= into.length ? into : new Uint8Array(size);
  let written = 0;
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const triple =
      ((bytes[index] as number) << 16) |
      ((bytes[index + 1] as number) << 8) |
      (bytes[index + 2] as number);
    out[written++] = CODES[triple >> 18] as number;
    out[written++] = CODES[(triple >> 12) & 63] as number;
    out[written++] = CODES[(triple >> 6) & 63] as number;
    out[written++] = CODES[triple & 63] as number;
  }
  const left = bytes.length - index;
  if (left === 1) {
    const single = bytes[index] as number;
    out[written++] = CODES[single >> 2] as number;
    out[written++] = CODES[(single & 3) << 4] as number;
  } else if (left === 2) {
    const pair = ((bytes[index] as number) << 8) | (bytes[index + 1] as number);
    out[written++] = CODES[pair >> 10] as number;
    out[written++] = CODES[(pair >> 4) & 63] as number;
    out[written++] = CODES[(pair & 15) << 2] as number;
  }
  // ASCII only, so UTF-8 decoding gives the characters as they are.
  return decoder.decode(out.subarray(0, written));
}

/**
 * Decodes unpadded base64url into `into` (from its start) and answers the byte count, or -1 for
 * anything but base64url: a character outside the alphabet, a length no encoding has, more bytes
 * than `into` holds. As `atob`, the unused low bits of the last character are ignored.
 */
function fromBase64Url(text: string, into: Uint8Array): number {
  const length = text.length;
  const size = Math.floor((length * 3) / 4);
  if (length % 4 === 1 || size > into.length) return -1;
  let bits = 0;
  let held = 0;
  let written = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    const sextet = code < 128 ? (SEXTETS[code] as number) : -1;
    if (sextet < 0) return -1;
    bits = ((bits << 6) | sextet) & 0xffffff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      into[written++] = (bits >> held) & 0xff;
    }
  }
  return written;
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

/** The longest token taken; a longer one is malformed before anything is decoded. */
const LONGEST_TOKEN = 4096;
const MAC_BYTES = 32;

/**
 * HMAC-SHA256 over the claims. The key is derived from a secret with HKDF under its own label,
 * so the provider key can serve as the secret without the token ever revealing it, and every
 * instance of the companion that shares the secret accepts the others' tokens.
 *
 * `secrets` in order of age, newest first (issue 21, item 4): the first signs, every one
 * verifies, so a new secret put in front leaves the tokens of open checkouts valid until they
 * expire; a secret taken out no longer opens anything.
 *
 * Pure JavaScript (@noble/hashes) rather than crypto.subtle: it runs on every runtime, stays
 * synchronous, and is the faster: on Node 20 `crypto.subtle.verify` with a CryptoKey imported
 * once costs about 40 µs a call against 12 µs here, on the path of every status poll (issue 25,
 * bench/token.ts). The same idea as an imported key: each secret's HMAC is keyed once (its
 * inner and outer pads hashed), and a call copies that state into one scratch HMAC, decodes
 * into scratch buffers and allocates nothing but the claims it answers.
 */
export function createTokenSigner(secrets: string | readonly string[]): TokenSigner {
  const keyed = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    hmac.create(
      sha256,
      hkdf(
        sha256,
        encoder.encode(secret),
        encoder.encode('paydrop'),
        encoder.encode('checkout-token-v1'),
        32,
      ),
    ),
  );
  const signing = keyed[0];
  if (!signing) throw new TypeError('createTokenSigner needs at least one secret.');
  // Scratch, reused by every call: sign and verify are synchronous, so no two calls share it.
  const scratch = signing.clone();
  const expected = new Uint8Array(MAC_BYTES);
  // A token is at most LONGEST_TOKEN characters, so neither part decodes to more than this.
  const presented = new Uint8Array((LONGEST_TOKEN * 3) / 4);
  const payloadBytes = new Uint8Array(LONGEST_TOKEN);
  const claimsBytes = new Uint8Array(LONGEST_TOKEN);
  const encoded = new Uint8Array(LONGEST_TOKEN);
  /** The MAC of `payload` under `key`, into `expected` (valid until the next call). */
  const mac = (key: typeof signing, payload: string): Uint8Array => {
    key._cloneInto(scratch);
    const { read, written } = encoder.encodeInto(payload, payloadBytes);
    scratch.update(
      read === payload.length ? payloadBytes.subarray(0, written) : encoder.encode(payload),
    );
    scratch.digestInto(expected);
    return expected;
  };

  return {
    sign(claims) {
      const json = JSON.stringify(claims);
      const { read, written } = encoder.encodeInto(json, claimsBytes);
      const bytes = read === json.length ? claimsBytes.subarray(0, written) : encoder.encode(json);
      const payload = toBase64Url(bytes, encoded);
      return `${payload}.${toBase64Url(mac(signing, payload), encoded)}`;
    },
    verify(token, nowSeconds) {
      const dot = token.indexOf('.');
      if (
        dot <= 0 ||
        dot === token.length - 1 ||
        token.indexOf('.', dot + 1) !== -1 ||
        token.length > LONGEST_TOKEN
      )
        return { ok: false, reason: 'malformed' };
      const payload = token.slice(0, dot);
      const signatureLength = fromBase64Url(token.slice(dot + 1), presented);
      if (signatureLength < 0) return { ok: false, reason: 'malformed' };
      const signature = presented.subarray(0, signatureLength);
      let valid = false;
      for (const key of keyed) {
        if (sameBytes(mac(key, payload), signature)) {
          valid = true;
          break;
        }
      }
      if (!valid) return { ok: false, reason: 'bad-signature' };
      const claimsLength = fromBase64Url(payload, payloadBytes);
      if (claimsLength < 0) return { ok: false, reason: 'malformed' };
      let claims: CheckoutClaims;
      try {
        claims = JSON.parse(
          decoder.decode(payloadBytes.subarray(0, claimsLength)),
        ) as CheckoutClaims;
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
        return { ok: false, reason: 'expired' };
      return { ok: true, claims };
    },
  };
}
