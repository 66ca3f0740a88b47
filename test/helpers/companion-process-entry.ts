/**
 * One companion in a process of its own, for the tests that kill it (SIGKILL) and start it again
 * on the same store, or run two of them on one Redis or PostgreSQL. Started by
 * `startCompanionProcess` (companion-process.ts); configured by its environment:
 *   PAYDROP_TEST_STORE   sqlite:<path> | redis:<url> | postgres:<url> | memory
 *   SANDBOX_URL, SANDBOX_SECRET_KEY   the provider (a sandbox that outlives this process)
 *   PORT                 0 for a free one; the same port again after a restart keeps the
 *                        sandbox's webhook URL valid
 * It prints `listening on <url>` once serving, then one line per outcome reported to the
 * merchant's hooks: `payment-outcome <json>` and `payout-outcome <json>`, printed before the hook
 * returns, so a line means the hook ran. `POST /__test/advance` moves its clock, runs what came
 * due, waits for its background work, and prints `advanced <n>` after that work's outcome lines.
 */
import { serve } from '../../src/node/serve';
import { type CheckoutStore, createCheckoutHandler, createMemoryStore } from '../../src/server';
import { createPostgresStore } from '../../src/server/store/postgres';
import { createRedisStore } from '../../src/server/store/redis';
import { createSqliteStore } from '../../src/server/store/sqlite';

// 'order-ngn:42' is order 42 of the NGN kind, as in test/helpers/companion.ts.
const ORDERS: Record<string, { amountMinor: number; currency: string; description: string }> = {
  'order-ngn': { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
  'order-gbp': { amountMinor: 4_999, currency: 'GBP', description: 'Merino scarf' },
  'order-usd': { amountMinor: 1_800, currency: 'USD', description: 'Enamel mug' },
};

const spec = process.env.PAYDROP_TEST_STORE ?? 'memory';
const store: CheckoutStore = spec.startsWith('sqlite:')
  ? createSqliteStore({ path: spec.slice('sqlite:'.length) })
  : spec.startsWith('redis:')
    ? createRedisStore({ url: spec.slice('redis:'.length) })
    : spec.startsWith('postgres:')
      ? createPostgresStore({ url: spec.slice('postgres:'.length) })
      : createMemoryStore();

let clockOffsetMs = Number(process.env.PAYDROP_TEST_CLOCK_OFFSET_MS ?? 0) || 0;

const checkout = createCheckoutHandler({
  secretKey: process.env.SANDBOX_SECRET_KEY ?? '',
  baseUrl: process.env.SANDBOX_URL ?? '',
  resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
  // The restart tests charge cards through the companion (the direct path).
  cardEntry: 'direct',
  store,
  now: () => Date.now() + clockOffsetMs,
  onPaymentOutcome: (outcome) => {
    console.log(`payment-outcome ${JSON.stringify(outcome)}`);
  },
  onPayoutOutcome: (outcome) => {
    console.log(`payout-outcome ${JSON.stringify(outcome)}`);
  },
  logger: {
    warn: (message, details) => console.error(`warn ${message} ${JSON.stringify(details ?? {})}`),
    error: (message, details) => console.error(`error ${message} ${JSON.stringify(details ?? {})}`),
  },
});
let advances = 0;
async function advance(request: Request): Promise<Response> {
  const { seconds } = (await request.json()) as { seconds: number };
  clockOffsetMs += seconds * 1000;
  await checkout.runDue();
  await checkout.idle();
  // After every outcome line of that work, on the same stdout: the parent reads up to here.
  advances += 1;
  console.log(`advanced ${advances}`);
  return Response.json({ clockOffsetMs, advanced: advances });
}

const running = await serve(
  (request) =>
    request.method === 'POST' && new URL(request.url).pathname === '/__test/advance'
      ? advance(request)
      : checkout(request),
  { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' },
);
console.log(`listening on ${running.url}`);
process.on('SIGTERM', () => {
  checkout.close();
  void running
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
