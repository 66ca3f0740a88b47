/**
 * A merchant's shop on loopback for the browser tests: one origin serving a page of the test's
 * choosing (with a strict CSP by default), the built script-tag bundle from dist/, the companion
 * at /api/checkout and a sandbox at /sandbox, with the sandbox's webhooks pointed at the companion.
 * Run `npm run build:widget` first (npm test does).
 */
import { readFile } from 'node:fs/promises';
import { SHOP_CSP } from '../../demo/policy';
import { serve } from '../../src/node/serve';
import { createSandboxHandler, isDroppedResponse, SANDBOX_TEST_KEY } from '../../src/sandbox';
import {
  type CheckoutHandlerOptions,
  createCheckoutHandler,
  type PaymentOutcome,
  type ResolvedOrder,
} from '../../src/server';

/** The demo's strict policy, as a careful merchant would set it: the widget must work under it. */
export const STRICT_CSP = SHOP_CSP;

export interface ShopOptions {
  /** Order id → what the merchant decided. Default: one NGN and one GBP order. */
  readonly orders?: Record<string, ResolvedOrder>;
  /** The Content-Security-Policy of the shop pages; null for none. Default STRICT_CSP. */
  readonly csp?: string | null;
  /** Extra companion options. */
  readonly companion?: Partial<CheckoutHandlerOptions>;
  /**
   * The sandbox (the provider) on an origin of its own, as in production, instead of under the
   * shop's /sandbox: its hosted pages are then cross-origin to the shop.
   */
  readonly providerOnOwnOrigin?: boolean;
}

export interface Shop {
  /** e.g. http://127.0.0.1:5123 */
  readonly url: string;
  readonly secretKey: string;
  /** Pages by path, e.g. shop.pages.set('/', '<!doctype html>…'). */
  readonly pages: Map<string, string>;
  /** Extra static scripts by path (served as JavaScript, CSP-safe). */
  readonly scripts: Map<string, string>;
  readonly outcomes: PaymentOutcome[];
  /** Every line the companion logged (warn and error), to prove what never is in one. */
  readonly logLines: string[];
  /** The sandbox's own origin (the shop's when it is not on one of its own). */
  readonly providerUrl: string;
  /** A sandbox control or API call with the key set, e.g. sandbox('POST', '/__sandbox/clock', { advanceSeconds: 60 }). */
  sandbox(method: string, path: string, body?: unknown): Promise<Response>;
  /** The newest payment the sandbox holds. */
  latestPayment(): Promise<{ reference: string; status: string; channel: string } | undefined>;
  close(): Promise<void>;
}

export const DEFAULT_ORDERS: Record<string, ResolvedOrder> = {
  // Transfer only, as the merchant allows it: the transfer journeys start at the account.
  'tote-ngn': {
    amountMinor: 2_500_050,
    currency: 'NGN',
    description: 'Adire tote bag',
    channels: ['PayByTransfer'],
  },
  // The provider offers PayByAccount and Card for GBP.
  'scarf-gbp': { amountMinor: 4_999, currency: 'GBP', description: 'Merino scarf' },
  'scarf-bank': {
    amountMinor: 4_999,
    currency: 'GBP',
    description: 'Merino scarf',
    channels: ['PayByAccount'],
  },
  // USD: Card only.
  'mug-usd': { amountMinor: 1_800, currency: 'USD', description: 'Enamel mug' },
};

/** A page that loads the script tag and has one pay button for `order`. */
export function buttonPage(order: string, extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/paydrop.js" defer></script></head>
<body><main><h1>Shop</h1><button id="pay" data-paydrop-order="${order}" data-paydrop-endpoint="/api/checkout">Pay now</button>${extra}</main></body></html>`;
}

export async function startShop(options: ShopOptions = {}): Promise<Shop> {
  const secretKey = SANDBOX_TEST_KEY;
  const orders = options.orders ?? DEFAULT_ORDERS;
  const outcomes: PaymentOutcome[] = [];
  const pages = new Map<string, string>();
  const scripts = new Map<string, string>();
  const sandbox = createSandboxHandler({
    secretKey,
    basePath: '/sandbox',
    webhookRetryDelaysMs: [100, 200, 400],
  });
  let checkout: ReturnType<typeof createCheckoutHandler> | undefined;
  const dist = new URL('../../dist/', import.meta.url);
  const csp = options.csp === undefined ? STRICT_CSP : options.csp;

  const logLines: string[] = [];
  const provider = options.providerOnOwnOrigin
    ? await serve((request) => sandbox(request), { isDropped: isDroppedResponse })
    : undefined;
  const running = await serve(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (!provider && pathname.startsWith('/sandbox/')) return sandbox(request);
      if (pathname.startsWith('/api/checkout') && checkout) return checkout(request);
      if (/^\/paydrop(-\w+\/\w+)?\.js$/.test(pathname)) {
        try {
          return new Response(await readFile(new URL(`.${pathname}`, dist)), {
            headers: { 'content-type': 'text/javascript; charset=utf-8' },
          });
        } catch {
          return new Response('build missing: run npm run build:widget', { status: 500 });
        }
      }
      const script = scripts.get(pathname);
      if (script !== undefined) {
        return new Response(script, {
          headers: { 'content-type': 'text/javascript; charset=utf-8' },
        });
      }
      const page = pages.get(pathname);
      if (page !== undefined) {
        return new Response(page, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            ...(csp ? { 'content-security-policy': csp } : {}),
          },
        });
      }
      return new Response('Not found', { status: 404 });
    },
    { isDropped: isDroppedResponse },
  );
  checkout = createCheckoutHandler({
    secretKey,
    baseUrl: `${(provider ?? running).url}/sandbox`,
    resolveOrder: (id) => orders[id] ?? null,
    // The card tests here type the card in the companion's card entry (the direct path);
    // the hosted page's journeys set cardEntry: 'hosted'.
    cardEntry: 'direct',
    onPaymentOutcome: (outcome) => {
      outcomes.push(outcome);
    },
    logger: {
      warn: (message, details) => logLines.push(`warn ${message} ${JSON.stringify(details ?? {})}`),
      error: (message, details) =>
        logLines.push(`error ${message} ${JSON.stringify(details ?? {})}`),
    },
    ...options.companion,
  });
  sandbox.world().config.webhookUrl = `${running.url}/api/checkout/webhooks`;

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${(provider ?? running).url}/sandbox${path}`, {
      method,
      headers: {
        'X-Api': secretKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  return {
    url: running.url,
    secretKey,
    pages,
    scripts,
    outcomes,
    logLines,
    providerUrl: (provider ?? running).url,
    sandbox: call,
    async latestPayment() {
      const answer = (await (await call('GET', '/__sandbox/payments')).json()) as {
        payments: Array<{ reference: string; status: string; channel: string }>;
      };
      return answer.payments.at(-1);
    },
    async close() {
      checkout?.close();
      sandbox.close();
      await running.close();
      await provider?.close();
    },
  };
}
