/**
 * The demo shop's orders and payment links. The browser names an order (or a link's alias); the
 * amount comes from here, on the server.
 */
import type { ResolvedOrder } from '../src/server';

export const CATALOGUE: Readonly<Record<string, ResolvedOrder & { name: string }>> = {
  // NGN: the provider offers a bank transfer and a card; the customer chooses.
  'tote-ngn': {
    name: 'Adire tote bag',
    amountMinor: 2_500_050,
    currency: 'NGN',
    description: 'Adire tote bag, indigo',
  },
  // The merchant narrows this one to bank transfers: the checkout goes straight to the account.
  'cushion-ngn': {
    name: 'Indigo cushion cover',
    amountMinor: 1_250_000,
    currency: 'NGN',
    description: 'Indigo cushion cover, 45 cm',
    channels: ['PayByTransfer'],
  },
  // GBP: from the customer's bank (open banking), or a card.
  'scarf-gbp': {
    name: 'Merino scarf',
    amountMinor: 4_999,
    currency: 'GBP',
    description: 'Merino scarf, oat',
  },
  // USD: a card only, typed in the companion's isolated card frame (the direct path, SAQ D): the
  // one product that shows it. Every other card in the shop is paid on the provider's page.
  'mug-usd': {
    name: 'Enamel mug',
    amountMinor: 1_800,
    currency: 'USD',
    description: 'Enamel camp mug',
    cardEntry: 'direct',
  },
};

export function resolveDemoOrder(orderId: string): ResolvedOrder | null {
  // Own properties only: '__proto__' or 'constructor' from a browser is no product (issue 9).
  const item = Object.hasOwn(CATALOGUE, orderId) ? CATALOGUE[orderId] : undefined;
  if (!item) return null;
  return {
    amountMinor: item.amountMinor,
    currency: item.currency,
    description: item.description,
    ...(item.channels ? { channels: item.channels } : {}),
    ...(item.cardEntry ? { cardEntry: item.cardEntry } : {}),
  };
}

/** What the "Pay a payment link" block sells: a one-time link for a gift card. */
export const DEMO_LINK = {
  name: 'Indigo & Oat gift card',
  description: 'Gift card, £20.00',
  amountMinor: 2_000,
  currency: 'GBP',
} as const;

/** The payment links this demo made, by alias: what resolveLink answers. */
const links = new Map<string, ResolvedOrder>();
/** Enough for any demo session; the oldest are forgotten first. */
const MAX_LINKS = 500;

export function rememberDemoLink(alias: string, link: ResolvedOrder): void {
  links.set(alias, link);
  for (const oldest of links.keys()) {
    if (links.size <= MAX_LINKS) break;
    links.delete(oldest);
  }
}

export function resolveDemoLink(alias: string): ResolvedOrder | null {
  return links.get(alias) ?? null;
}

/** The demo's links are one-time: once paid, opening one again says so before anything else. */
export function demoLinkPaid(alias: string): void {
  const link = links.get(alias);
  if (link) links.set(alias, { ...link, paid: true });
}
