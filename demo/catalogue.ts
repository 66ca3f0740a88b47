/**
 * The demo shop's orders. The browser names an order; the amount comes from here, on the server.
 */
import type { ResolvedOrder } from '../src/server';

export const CATALOGUE: Readonly<Record<string, ResolvedOrder & { name: string }>> = {
  'tote-ngn': {
    name: 'Adire tote bag',
    amountMinor: 2_500_050,
    currency: 'NGN',
    description: 'Adire tote bag, indigo',
  },
  'cushion-ngn': {
    name: 'Indigo cushion cover',
    amountMinor: 1_250_000,
    currency: 'NGN',
    description: 'Indigo cushion cover, 45 cm',
  },
  'scarf-gbp': {
    name: 'Merino scarf',
    amountMinor: 4_999,
    currency: 'GBP',
    description: 'Merino scarf, oat',
  },
  'mug-usd': {
    name: 'Enamel mug',
    amountMinor: 1_800,
    currency: 'USD',
    description: 'Enamel camp mug',
  },
};

export function resolveDemoOrder(orderId: string): ResolvedOrder | null {
  const item = CATALOGUE[orderId];
  return item
    ? { amountMinor: item.amountMinor, currency: item.currency, description: item.description }
    : null;
}
