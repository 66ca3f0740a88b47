// What every consumer app shares: a merchant's companion from the packed package, configured from
// the environment the test sets (the sandbox's URL and key, the webhook secret), and the
// outcomes it heard, which each app serves at GET /outcomes for the test to read.
import { createCheckoutHandler } from 'paydrop/server';

const ORDERS = {
  'order-ngn': { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
};

/** References whose outcome onPaymentOutcome was told. */
export const outcomes = [];

export const checkout = createCheckoutHandler({
  secretKey: process.env.PROVIDER_SECRET_KEY ?? '',
  baseUrl: process.env.PROVIDER_BASE_URL ?? '',
  webhookSecrets: [process.env.PROVIDER_WEBHOOK_SECRET ?? ''],
  resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
  onPaymentOutcome: (outcome) => {
    outcomes.push(outcome.reference);
  },
});

export function outcomesResponse() {
  return Response.json(outcomes);
}

/** The test waits for this line to know where the app listens. */
export function announce(port) {
  console.log(`listening http://127.0.0.1:${port}`);
}
