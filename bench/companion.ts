/**
 * What the companion adds to a forwarded call: GET /status through the companion against the
 * same status call made straight to the sandbox, on loopback, in one run. Each reference is asked
 * once per phase so the companion's one-second status cache never answers for the provider.
 * The sandbox, the companion and this client each run in a process of their own, as the
 * provider, the merchant's server and the browser would.
 * Budget (DESIGN.md): under 1 ms added at the median, 5 ms at p99.
 */
import { SANDBOX_TEST_KEY } from '../src/sandbox';
import { startEntry as start } from './servers';

const LATENCY_CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const THROUGHPUT_CALLS = LATENCY_CALLS;
const CONCURRENCY = 16;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function timed(call: () => Promise<Response>): Promise<number> {
  const start = performance.now();
  const response = await call();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`bench call failed: ${response.status}`);
  return performance.now() - start;
}

async function sequential(calls: Array<() => Promise<Response>>): Promise<number[]> {
  const times: number[] = [];
  for (const call of calls) times.push(await timed(call));
  return times.sort((a, b) => a - b);
}

async function throughput(calls: Array<() => Promise<Response>>): Promise<number> {
  const queue = [...calls];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let call = queue.shift(); call; call = queue.shift()) await timed(call);
    }),
  );
  return (calls.length / (performance.now() - start)) * 1000;
}

const secretKey = SANDBOX_TEST_KEY;
const sandbox = await start('src/sandbox/cli.ts', { PORT: '0', SANDBOX_SECRET_KEY: secretKey });
const companionProcess = await start('bench/companion-server.ts', {
  SANDBOX_URL: sandbox.url,
  SANDBOX_SECRET_KEY: secretKey,
});
const companion = `${companionProcess.url}/api/checkout`;

/** The answer's JSON; a refused call stops the bench with what the companion said. */
async function answerOf<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function newPayment(index: number): Promise<{ token: string; reference: string }> {
  const session = await answerOf<{ token: string }>(
    await fetch(`${companion}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: `bench-${index}` }),
    }),
  );
  const initiated = await answerOf<{ token: string; payment: { reference: string } }>(
    await fetch(`${companion}/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ channel: 'PayByTransfer' }),
    }),
  );
  return { token: initiated.token, reference: initiated.payment.reference };
}

const payments: Array<{ token: string; reference: string }> = [];
for (let index = 0; index < LATENCY_CALLS + THROUGHPUT_CALLS + 50; index++)
  payments.push(await newPayment(index));

const direct = (reference: string) => () =>
  fetch(`${sandbox.url}/api/payment/pay/status/${reference}`, { headers: { 'X-Api': secretKey } });
const viaCompanion = (token: string) => () =>
  fetch(`${companion}/status`, { headers: { authorization: `Bearer ${token}` } });

// Warm both paths (JIT, sockets) on references the measured phases do not use.
const warm = payments.splice(0, 50);
await sequential(warm.map((payment) => direct(payment.reference)));
await sequential(warm.map((payment) => viaCompanion(payment.token)));

const latencySet = payments.slice(0, LATENCY_CALLS);
const throughputSet = payments.slice(LATENCY_CALLS);
// Interleaved, one direct call then the same through the companion, so that drift in the
// machine's load falls on both alike.
const directTimes: number[] = [];
const companionTimes: number[] = [];
for (const payment of latencySet) {
  directTimes.push(await timed(direct(payment.reference)));
  companionTimes.push(await timed(viaCompanion(payment.token)));
}
directTimes.sort((a, b) => a - b);
companionTimes.sort((a, b) => a - b);
// The sandbox allows 5 status queries per reference per second: the phases are a second apart.
await new Promise((resolve) => setTimeout(resolve, 1100));
const directRate = await throughput(throughputSet.map((payment) => direct(payment.reference)));
await new Promise((resolve) => setTimeout(resolve, 1100));
const companionRate = await throughput(throughputSet.map((payment) => viaCompanion(payment.token)));

const row = (name: string, times: number[]) => ({
  name,
  median: percentile(times, 50),
  p99: percentile(times, 99),
});
const d = row('sandbox directly', directTimes);
const c = row('through the companion', companionTimes);
const added = { median: c.median - d.median, p99: c.p99 - d.p99 };
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
console.log(`companion latency (GET /status, ${LATENCY_CALLS} sequential calls, loopback)`);
for (const r of [d, c])
  console.log(`  ${r.name.padEnd(22)} median ${fmt(r.median)}  p99 ${fmt(r.p99)}`);
console.log(
  `  added by the companion   median ${fmt(added.median)} (budget 1 ms)  p99 ${fmt(added.p99)} (budget 5 ms)  ratio ${(c.median / d.median).toFixed(2)}x`,
);
console.log(`companion throughput (${THROUGHPUT_CALLS} calls, ${CONCURRENCY} in flight)`);
console.log(`  sandbox directly        ${directRate.toFixed(0)} calls/s`);
console.log(
  `  through the companion   ${companionRate.toFixed(0)} calls/s  ratio ${(companionRate / directRate).toFixed(2)}`,
);
const withinBudget = added.median < 1 && added.p99 < 5;
console.log(`  ${withinBudget ? 'within budget' : 'OVER BUDGET'}`);

companionProcess.child.kill('SIGTERM');
sandbox.child.kill('SIGTERM');

// The companion's own work per forwarded call, without any network: the handler in this process
// with a provider that answers at once. What remains of the added latency above is the extra
// loopback hop and its HTTP client and server.
{
  const { createCheckoutHandler } = await import('../src/server');
  const { createTokenSigner } = await import('../src/server/checkout/token');
  const answer = (reference: string) =>
    JSON.stringify({
      value: {
        paymentReference: reference,
        amount: { currencyCode: 'NGN', amount: 2500.5 },
        paymentStatus: 'PENDING',
      },
      isSuccess: true,
    });
  const handler = createCheckoutHandler({
    secretKey,
    baseUrl: 'http://provider.invalid',
    resolveOrder: () => null,
    logger: { warn: () => {}, error: () => {} },
    fetch: async (input) => new Response(answer(String(input).split('/').pop() ?? '')),
  });
  const signer = createTokenSigner(secretKey);
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const tokens = Array.from({ length: 4000 }, (_, index) =>
    signer.sign({
      sid: `s${index}`,
      orderId: `o${index}`,
      linkAlias: null,
      amountMinor: 250_050,
      currency: 'NGN',
      description: 'bench',
      channels: ['PayByTransfer'],
      origin: null,
      reference: `REF_${index}`,
      channel: 'PayByTransfer',
      exp,
    }),
  );
  const call = async (token: string) =>
    (
      await handler(
        new Request('http://shop.test/api/checkout/status', {
          headers: { authorization: `Bearer ${token}` },
        }),
      )
    ).text();
  for (const token of tokens.slice(0, 1000)) await call(token);
  const start = performance.now();
  for (const token of tokens.slice(1000)) await call(token);
  const perCall = ((performance.now() - start) / 3000) * 1000;
  console.log(
    `companion's own work per forwarded call (in process, provider stubbed): ${perCall.toFixed(0)} µs`,
  );
  handler.close();
}
