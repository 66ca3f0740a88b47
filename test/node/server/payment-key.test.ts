// The payment key's value (issue 20, item 3) is a contract with the browsers that hold one: a key
// handed out before a deploy must still be recognised after it. Pinned here against Node's own
// HKDF and HMAC, so a faster computation (issue 25) cannot change what a key is.
import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPaymentOwner } from '../../../src/server/checkout/payment-owner';

const OLD = 'an-old-secret-long-enough-for-keys-xx';
const NEW = 'a-new-secret-long-enough-for-keys-xxx';

function nodeKey(secret: string, reference: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'paydrop', 'payment-key-v1', 32));
  return createHmac('sha256', key).update(reference).digest('hex');
}

describe('payment keys', () => {
  it('are HMAC-SHA256 of the reference under the HKDF of the first secret, in hex', () => {
    const owner = createPaymentOwner([NEW, OLD]);
    for (const reference of ['PAYDROP_1', 'ref-é☕', 'x'.repeat(200)]) {
      expect(owner.keyOf(reference)).toBe(nodeKey(NEW, reference));
    }
  });

  it('recognise a key made under any secret still listed, and nothing else', () => {
    const owner = createPaymentOwner([NEW, OLD]);
    const reference = 'PAYDROP_42';
    expect(owner.holds(reference, [nodeKey(OLD, reference)])).toBe(true);
    expect(owner.holds(reference, ['0'.repeat(64), nodeKey(NEW, reference)])).toBe(true);
    expect(owner.holds(reference, [nodeKey(NEW, 'PAYDROP_43')])).toBe(false);
    expect(
      owner.holds(reference, [nodeKey('a-third-secret-long-enough-xxxxxxxxx', reference)]),
    ).toBe(false);
    expect(owner.holds(reference, [])).toBe(false);
    // Asked twice, the same: the keyed HMAC is cloned per call, never left holding the last one.
    expect(owner.keyOf(reference)).toBe(owner.keyOf(reference));
  });
});
