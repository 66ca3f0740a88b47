/**
 * The companion alone in its own process for the benchmark, as on a merchant's server: it talks
 * to the sandbox (another process) at SANDBOX_URL and prints its URL once listening.
 */
import { serve } from '../src/node/serve';
import { createCheckoutHandler } from '../src/server';

const checkout = createCheckoutHandler({
  secretKey: process.env.SANDBOX_SECRET_KEY ?? '',
  baseUrl: process.env.SANDBOX_URL ?? '',
  resolveOrder: () => ({ amountMinor: 250_050, currency: 'NGN', description: 'bench' }),
  logger: { warn: () => {}, error: console.error },
  // Two thousand customers played from one loopback address: no per-address limits (issue 20),
  // which a shop's customers would not meet this way (and which stopped this bench at 429).
  clientAddress: () => null,
  limits: { paymentsPerAddressPerHour: 10_000 },
});
const running = await serve(checkout);
console.log(`listening on ${running.url}`);
process.on('SIGTERM', () => {
  checkout.close();
  void running.close().then(() => process.exit(0));
});
