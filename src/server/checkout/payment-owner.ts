/**
 * Whose payment is it (issue 20, item 3). Anyone who knows an order id can open its checkout, so
 * the details of a payment under way (the account to pay into, the bank's link, a token that
 * follows it) go only to the browser that started it. At initiation the companion hands that
 * browser a payment key, an HMAC of the reference under a key derived from the companion's secret:
 * nothing to store, the same on every instance, and no use for any other payment. The widget keeps
 * it and sends it back to `/session`.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { PaymentViewWire } from '../../protocol/contract';

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex(bytes: Uint8Array): string {
  // By table: `Array.from(bytes, fn).join('')` made a call and a string per byte, on every
  // initiation and every returning `/session` (issue 25).
  let text = '';
  for (const byte of bytes) text += HEX[byte] as string;
  return text;
}

/** `secrets` newest first, as tokenSecret: the first makes keys, every one recognises its own. */
export function createPaymentOwner(secrets: string | readonly string[]) {
  // Each secret's HMAC keyed once (its pads hashed), as the token signer does; a call clones it.
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    hmac.create(
      sha256,
      hkdf(
        sha256,
        encoder.encode(secret),
        encoder.encode('paydrop'),
        encoder.encode('payment-key-v1'),
        32,
      ),
    ),
  );
  type Keyed = (typeof keys)[number];
  const keyUnder = (key: Keyed, reference: string) =>
    hex(key.clone().update(encoder.encode(reference)).digest());
  const keyOf = (reference: string) => keyUnder(keys[0] as Keyed, reference);
  return {
    /** The key the browser that initiated `reference` gets, once. */
    keyOf,
    /** True when one of `given` (what the browser sent to `/session`) is this payment's. */
    holds(reference: string, given: readonly string[]): boolean {
      if (given.length === 0) return false;
      // Under every secret still verifying: a key handed out before a rotation still counts.
      return keys.some((key) => {
        const expected = keyUnder(key, reference);
        // Compared whole, so timing tells nothing of how much of a guess was right.
        return given.some((candidate) => {
          if (candidate.length !== expected.length) return false;
          let difference = 0;
          for (let index = 0; index < candidate.length; index++)
            difference |= candidate.charCodeAt(index) ^ expected.charCodeAt(index);
          return difference === 0;
        });
      });
    },
  };
}

export type PaymentOwner = ReturnType<typeof createPaymentOwner>;

/**
 * A payment as someone other than its payer may see it: its status and amount (a success to show,
 * one settling to wait for), not where the money goes or the bank's link.
 */
export function withoutDetails(view: PaymentViewWire): PaymentViewWire {
  return { ...view, virtualAccount: null, bankAuthUrl: null };
}
