// The checkout token's encoding and checks (issue 25, item 3: verification by table and scratch
// buffers, no allocation per byte): round trips whatever the claims hold, every secret of a
// rotation verifies, and anything altered or not base64url is refused for the right reason.
import { describe, expect, it } from 'vitest';
import { type CheckoutClaims, createTokenSigner } from '../../../src/server/checkout/token';

const NOW = 1_800_000_000;
const claims: CheckoutClaims = {
  sid: 'sid-1',
  orderId: 'order_1',
  linkAlias: null,
  amountMinor: 2_500_050,
  currency: 'NGN',
  description: 'Ọjà — 2 × café ☕',
  channels: ['PayByTransfer', 'Card'],
  origin: 'https://shop.test',
  reference: 'REF_1',
  exp: NOW + 60,
};

describe('checkout token', () => {
  const signer = createTokenSigner('a-secret-long-enough-for-the-test');

  it('round-trips claims of any length and characters', () => {
    for (let length = 0; length < 70; length++) {
      const given = { ...claims, description: 'é☕x'.repeat(length).slice(0, length) };
      expect(signer.verify(signer.sign(given), NOW)).toEqual({ ok: true, claims: given });
    }
  });

  it('encodes as unpadded base64url, as before', () => {
    const token = signer.sign(claims);
    const [payload, signature] = token.split('.') as [string, string];
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toEqual(claims);
    expect(Buffer.from(signature, 'base64url')).toHaveLength(32);
  });

  it('signs claims longer than its scratch buffers, in the same encoding', () => {
    // 5,000 characters of description: JSON and base64url past the 4,096 bytes reused per call.
    const long = { ...claims, description: '☕'.repeat(5000) };
    const [payload, signature] = signer.sign(long).split('.') as [string, string];
    expect(payload).toBe(Buffer.from(JSON.stringify(long)).toString('base64url'));
    expect(Buffer.from(signature, 'base64url')).toHaveLength(32);
    // The next token is not made of what the long one left in the buffers.
    const [short] = signer.sign(claims).split('.') as [string];
    expect(short).toBe(Buffer.from(JSON.stringify(claims)).toString('base64url'));
  });

  it('verifies with every secret of a rotation and signs with the first', () => {
    const before = createTokenSigner(['old-secret-xxxxxxxxxxxxxxxxxxxx']);
    const rotating = createTokenSigner([
      'new-secret-xxxxxxxxxxxxxxxxxxxx',
      'old-secret-xxxxxxxxxxxxxxxxxxxx',
    ]);
    const after = createTokenSigner(['new-secret-xxxxxxxxxxxxxxxxxxxx']);
    expect(rotating.verify(before.sign(claims), NOW).ok).toBe(true);
    expect(after.verify(rotating.sign(claims), NOW).ok).toBe(true);
    expect(after.verify(before.sign(claims), NOW)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses an altered, truncated or foreign token', () => {
    const token = signer.sign(claims);
    const [payload, signature] = token.split('.') as [string, string];
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    for (let at = 0; at < payload.length; at += 7)
      expect(signer.verify(`${flip(payload, at)}.${signature}`, NOW).ok).toBe(false);
    for (let at = 0; at < signature.length - 1; at++)
      expect(signer.verify(`${payload}.${flip(signature, at)}`, NOW)).toEqual({
        ok: false,
        reason: 'bad-signature',
      });
    expect(signer.verify(`${payload}.${signature.slice(0, -3)}`, NOW)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(signer.verify(`${payload}.${signature}AAAA`, NOW)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const foreign = createTokenSigner('another-secret-xxxxxxxxxxxxxxxxx').sign(claims);
    expect(signer.verify(foreign, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('answers malformed for what is not a token', () => {
    const token = signer.sign(claims);
    const [payload, signature] = token.split('.') as [string, string];
    for (const bad of [
      '',
      '.',
      payload,
      `${payload}.`,
      `.${signature}`,
      `${token}.x`,
      `${payload}.${signature.slice(0, 41)}+/`,
      `${payload}.${signature.slice(0, 42)}=`,
      `${payload}.${signature.slice(0, 40)}é`,
      `${payload}.${signature}AA`, // 45 characters: a length no base64 has
      `${payload}${'A'.repeat(4096)}.${signature}`,
    ])
      expect(signer.verify(bad, NOW), bad.slice(0, 80)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('answers expired at and past exp', () => {
    const token = signer.sign(claims);
    expect(signer.verify(token, claims.exp)).toEqual({ ok: false, reason: 'expired' });
    expect(signer.verify(token, claims.exp - 1).ok).toBe(true);
  });
});
