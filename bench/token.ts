/**
 * What verifying a checkout token costs (issue 25, item 3), on the path of every call after
 * /session: `createTokenSigner().verify` against the same HMAC by `crypto.subtle.verify` with a
 * CryptoKey imported once (the runtime's own, but asynchronous), in this process.
 * BENCH_TOKEN_BEFORE=<file>: also a signer module to compare with, e.g. the previous version
 * (`git show <commit>:src/server/checkout/token.ts > bench/token-before.ts`).
 */
import { createTokenSigner, type TokenSigner } from '../src/server/checkout/token';

const ROUNDS = 7;
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const now = Math.floor(Date.now() / 1000);
const claims = {
  sid: 'c0d1f2a3-b4c5-4d6e-8f90-a1b2c3d4e5f6',
  orderId: 'order-12345',
  linkAlias: null,
  amountMinor: 250_050,
  currency: 'NGN',
  description: 'Order 12345',
  channels: ['PayByTransfer', 'Card', 'USSD'],
  origin: 'https://shop.example',
  reference: 'PAYDROP_0123456789',
  channel: 'PayByTransfer',
  owner: true,
  exp: now + 3600,
} as const;
const secret = 'sk_test_bench_0123456789abcdef';

/** µs per call: the median of ROUNDS rounds of CALLS calls, after a warm-up. */
async function perCall(run: () => unknown): Promise<number> {
  for (let index = 0; index < 2000; index++) await run();
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let index = 0; index < CALLS; index++) await run();
    rounds.push(((performance.now() - start) / CALLS) * 1000);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? Number.NaN;
}

const current = createTokenSigner(secret);
const signers: Array<[string, TokenSigner]> = [['createTokenSigner (src)', current]];
if (process.env.BENCH_TOKEN_BEFORE) {
  const before = (await import(
    process.env.BENCH_TOKEN_BEFORE
  )) as typeof import('../src/server/checkout/token');
  signers.unshift(['createTokenSigner (before)', before.createTokenSigner(secret)]);
}
const token = current.sign(claims);
const [payload = '', signature = ''] = token.split('.');
const key = await crypto.subtle.importKey(
  'raw',
  crypto.getRandomValues(new Uint8Array(32)),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['verify'],
);
const signatureBytes = Uint8Array.from(Buffer.from(signature, 'base64url'));
const encoder = new TextEncoder();

console.log(
  `token verification (${token.length} characters, median of ${ROUNDS} × ${CALLS} calls)`,
);
const reference = await perCall(() =>
  crypto.subtle.verify('HMAC', key, signatureBytes, encoder.encode(payload)),
);
console.log(
  `  crypto.subtle.verify, key imported once  ${reference.toFixed(1).padStart(6)} µs (reference)`,
);
for (const [name, signer] of signers) {
  // Each signer verifies its own token, so every row checks a valid one.
  const own = signer.sign(claims);
  if (!signer.verify(own, now).ok) throw new Error(`${name} does not verify its own token`);
  const verify = await perCall(() => signer.verify(own, now));
  const sign = await perCall(() => signer.sign(claims));
  console.log(
    `  ${name.padEnd(38)} ${verify.toFixed(1).padStart(6)} µs verify (${(verify / reference).toFixed(2)}× the reference), ${sign.toFixed(1)} µs sign`,
  );
}
