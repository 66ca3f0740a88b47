// Type tests for the public API: what a merchant writes compiles, and wrong calls are errors
// (each @ts-expect-error fails the check if its line ever compiles). `npm run typecheck` runs this
// file against the sources; test/types/packed-types.test.ts runs it again against the packed
// package under moduleResolution bundler, node16 and nodenext, its imports rewritten to 'paydrop…'.
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createElement } from 'react';
// The script tag's typings: window.Paydrop, declared by paydrop/paydrop.js.
import type {} from '../../src/embed';
import {
  type CheckoutFailure,
  type CheckoutFailureCode,
  type CheckoutResult,
  open,
  type PaymentSummary,
} from '../../src/index';
import { PayButton, type PayButtonProps, usePaydrop } from '../../src/react';
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  createCheckoutHandler,
  createMemoryStore,
  type DueWorkSummary,
  type PaymentOutcome,
  verifyWebhook,
} from '../../src/server';
import { serve, toExpressMiddleware, toFastifyPlugin, toNodeListener } from '../../src/server/node';

const options: CheckoutHandlerOptions = {
  secretKey: 'sk_test_types',
  baseUrl: 'https://sandbox.provider.example',
  resolveOrder: async (id) => ({
    amountMinor: 250_050,
    currency: 'NGN',
    description: `Order ${id}`,
  }),
  onPaymentOutcome: (outcome: PaymentOutcome) => {
    const status: 'SUCCESSFUL' | 'FAILED' = outcome.status;
    void status;
  },
  store: createMemoryStore(),
};
const checkout: CheckoutHandler = createCheckoutHandler(options);

// A (Request) => Promise<Response>: a Next.js route handler, Bun.serve, Deno.serve, Hono.
export const POST: (request: Request) => Promise<Response> = checkout;
const hono = new Hono();
hono.all('/api/checkout/*', (c) => checkout(c.req.raw));

// The Node adapters fit the frameworks' own types.
const app = express();
app.use('/api/checkout', toExpressMiddleware(checkout));
const fastify = Fastify();
void fastify.register(toFastifyPlugin(checkout), { prefix: '/api/checkout' });
const listener: (
  request: import('node:http').IncomingMessage,
  response: import('node:http').ServerResponse,
) => void = toNodeListener(checkout);
void listener;
// serve() creates the http server with its timeouts; every limit is an option.
void serve(checkout, { port: 0, host: '127.0.0.1', headersTimeoutMs: 5_000, maxBodyBytes: 16_384 });
toNodeListener(checkout, { maxBodyBytes: 16_384 });
createCheckoutHandler({ ...options, validationCacheMs: 0, maxEventStreamsPerCheckout: 5 });
// @ts-expect-error timeouts are numbers of ms
void serve(checkout, { headersTimeoutMs: '10s' });

// @ts-expect-error secretKey is required
createCheckoutHandler({ baseUrl: options.baseUrl, resolveOrder: options.resolveOrder });
createCheckoutHandler({
  ...options,
  // @ts-expect-error an amount is an integer count of minor units, not a string
  resolveOrder: async () => ({ amountMinor: '2500.50', currency: 'NGN', description: 'x' }),
});
// @ts-expect-error webhookSecrets is a list
createCheckoutHandler({ ...options, webhookSecrets: 'whsec_one' });
// tokenSecret: one secret, or several while rotating (the first signs, all verify).
createCheckoutHandler({ ...options, tokenSecret: 'a-token-secret-of-32-characters-or-more' });
createCheckoutHandler({ ...options, tokenSecret: ['the-new-secret…', 'the-old-one…'] as const });
// @ts-expect-error a token secret is text
createCheckoutHandler({ ...options, tokenSecret: [42] });
// Serverless: no timers, the platform's waitUntil, and a cron calling runDueWork (issue 22).
const serverless = createCheckoutHandler({
  ...options,
  pollDueWork: false,
  waitUntil: (work: Promise<unknown>) => void work,
});
void serverless.runDueWork({ maxJobs: 100 }).then((summary: DueWorkSummary) => {
  const ran: number | undefined = summary.ran.payments;
  const more: boolean = summary.more;
  void [ran, more];
});
// @ts-expect-error pollDueWork is true or false
createCheckoutHandler({ ...options, pollDueWork: 'off' });
// @ts-expect-error maxJobs is a number of jobs
void serverless.runDueWork({ maxJobs: 'all' });
// @ts-expect-error the handler takes a Request, not a URL
void checkout('https://shop.example/api/checkout/session');
// @ts-expect-error the handler answers a Promise of a Response
const notAResponse: Response = checkout(new Request('https://shop.example/'));
void notAResponse;
// @ts-expect-error an adapter wraps a handler, not its options
toNodeListener(options);
// @ts-expect-error verifyWebhook needs the secrets to check against
void verifyWebhook({ headers: new Headers(), body: '' });

// The widget: open() needs the companion's endpoint and an order or a link.
open({ endpoint: '/api/checkout', order: 'order-42' });
// @ts-expect-error the order is the merchant's id, not an amount the browser could change
open({ endpoint: '/api/checkout', order: 2500 });

// A merchant's exhaustive switch on the failure's code compiles, and a code paydrop never sends is
// a type error: CheckoutFailureCode is exactly the codes the widget sends (issue 24), not string.
function describeFailure(error: CheckoutFailure): string {
  switch (error.code) {
    case 'payment_failed':
    case 'card_declined':
    case 'verification_failed':
    case 'challenge_timeout':
    case 'bank_declined':
    case 'transfer_short':
      return 'The payment failed';
    case 'expired':
      return 'The account expired';
    case 'already_open':
      return 'A checkout is already open';
    case 'no_channels':
    case 'already_paid':
    case 'payment_pending':
    case 'order_not_found':
    case 'unauthorized':
    case 'rate_limited':
    case 'invalid':
    case 'conflict':
    case 'timeout':
    case 'unavailable':
    case 'network':
    case 'bad_response':
    case 'internal':
      return 'The checkout could not go on';
    default: {
      // Every code is handled above: nothing is left for `never`.
      const unhandled: never = error.code;
      return unhandled;
    }
  }
}
open({
  endpoint: '/api/checkout',
  order: 'order-42',
  onFailure: (error) => {
    void describeFailure(error);
    switch (error.code) {
      case 'card_declined':
        break;
      // @ts-expect-error paydrop never sends card_stolen: not a CheckoutFailureCode
      case 'card_stolen':
        break;
      // @ts-expect-error nor insufficient_funds: the browser hears card_declined (issue 20)
      case 'insufficient_funds':
        break;
    }
  },
});
void open({ endpoint: '/api/checkout', order: 'order-42' }).result.then(
  (result: CheckoutResult) => {
    // @ts-expect-error the result's failure has the same codes
    if (result.status === 'failed' && result.error.code === 'card_stolen') return;
  },
);
// The script tag's window.Paydrop takes the same options and reports the same codes.
window.Paydrop?.open({
  endpoint: '/api/checkout',
  order: 'order-42',
  onFailure: (error) => {
    // @ts-expect-error the script tag's onFailure has open()'s codes
    if (error.code === 'card_stolen') return;
    void describeFailure(error);
  },
});
// @ts-expect-error a code is one of the union, not any string
const anyCode: CheckoutFailureCode = 'card_stolen';
void anyCode;

// paydrop/react: PayButton takes open()'s options, typed as open() types them, and a button's.
const payButton: PayButtonProps = {
  endpoint: '/api/checkout',
  order: 'order-42',
  onSuccess: (payment: PaymentSummary) => void payment.reference,
  onFailure: (error: CheckoutFailure) => {
    // The same codes open() reports, e.g. 'expired' or 'bank_declined'.
    const expired: boolean = error.code === 'expired';
    void expired;
  },
  className: 'pay',
  disabled: false,
  children: 'Pay now',
};
createElement(PayButton, payButton);
createElement(PayButton, { endpoint: '/api/checkout', link: 'lnk_spring' }, 'Pay the link');
// @ts-expect-error the order is the merchant's id, not an amount
createElement(PayButton, { endpoint: '/api/checkout', order: 2500 }, 'Pay');
// @ts-expect-error the endpoint is required
createElement(PayButton, { order: 'order-42' }, 'Pay');
createElement(PayButton, {
  endpoint: '/api/checkout',
  order: 'order-42',
  // @ts-expect-error onSuccess is given the payment, whose amount is not a string
  onSuccess: (payment: { amount: string }) => void payment,
});
createElement(PayButton, {
  endpoint: '/api/checkout',
  order: 'order-42',
  // @ts-expect-error no such failure code: onFailure's codes are open()'s
  onFailure: (error) => error.code === 'card_stolen',
});
export function Checkout(): void {
  const paydrop = usePaydrop({
    endpoint: '/api/checkout',
    order: 'order-42',
    onFailure: (error) => {
      // @ts-expect-error usePaydrop's onFailure has open()'s codes
      if (error.code === 'card_stolen') return;
      void describeFailure(error);
    },
    onClose: (result) => {
      // @ts-expect-error and so does onClose's result
      if (result.status === 'failed' && result.error.code === 'card_stolen') return;
    },
  });
  paydrop.open({ locale: 'fr' });
  const isOpen: boolean = paydrop.isOpen;
  void isOpen;
  // @ts-expect-error overrides are open()'s options
  paydrop.open({ locale: 42 });
}
