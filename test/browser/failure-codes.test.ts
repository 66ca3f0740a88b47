// @vitest-environment jsdom
// Every code a merchant's onFailure and result can receive, made to happen (issue 24, item 4):
// `HOW` has one way per code of CheckoutFailureCode, and `satisfies` makes the list exact both
// ways at compile time (a code of the union without a way here is missing, a key that is no
// code is excess); each way runs the widget's own producer (the model, the companion's answers
// through the real HTTP port, open()) and checks the merchant gets that code. A code the union
// listed but the widget never sent would have no way to write here. docs/widget.md's table of
// codes lists the same codes, no more.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCardActions } from '../../src/flow/channels';
import type { CheckoutFailureCode, CheckoutResult } from '../../src/flow/checkout-model';
import { CompanionFailure, parseFailure, parseStatus } from '../../src/flow/companion';
import { CHECKOUT_ERROR_STATUS, type CheckoutErrorCode } from '../../src/protocol/contract';
import { createCompanionHttp } from '../../src/widget/companion-http';
import { open } from '../../src/widget/open';
import { flush } from '../helpers/fake-clock';
import { bankPayment, cardPayment, sessionView } from '../helpers/fake-companion-answers';
import { type Harness, harness, inTransfer } from '../node/flow/model-harness';

/** What the merchant receives: the result of a checkout closed now, failed. */
function received(h: Harness): CheckoutResult {
  const result = h.model.resultIfClosed();
  h.model.dispose();
  return result;
}

/** A transfer whose pushed status says FAILED, with what the companion said of why. */
async function transferFailed(answer: Record<string, unknown>): Promise<CheckoutResult> {
  const h = harness();
  await inTransfer(h);
  h.companion.active[0]?.onStatus('FAILED', parseStatus({ status: 'FAILED', ...answer }));
  return received(h);
}

/** A bank payment under way, failed. */
async function bankFailed(): Promise<CheckoutResult> {
  const h = harness({ supportedChannels: ['PayByAccount'] });
  void h.model.start();
  h.companion
    .lastSession()
    .answer.resolve(sessionView({ channels: [{ name: 'PayByAccount', description: 'Bank' }] }));
  await flush();
  h.companion.lastInitiation().answer.resolve({ token: 'bank-token', payment: bankPayment() });
  await flush();
  h.companion.push('FAILED');
  return received(h);
}

/** A card submitted, then `end` with its actions. */
async function cardEnded(
  end: (
    card: ReturnType<typeof createCardActions>,
    payment: ReturnType<typeof cardPayment>,
  ) => void,
): Promise<CheckoutResult> {
  const h = harness({ supportedChannels: ['Card'] });
  void h.model.start();
  h.companion
    .lastSession()
    .answer.resolve(sessionView({ channels: [{ name: 'Card', description: 'Card' }] }));
  await flush();
  const card = createCardActions(h.model.paying);
  const payment = cardPayment();
  card.cardStarted(payment, 'card-token');
  end(card, payment);
  return received(h);
}

/** The session refused with `failure`, as the companion port rejects it. */
async function sessionRefused(failure: unknown): Promise<CheckoutResult> {
  const h = harness();
  void h.model.start();
  h.companion.lastSession().answer.reject(failure);
  await flush();
  return received(h);
}

/** The companion answering the session with a refusal of this contract code. */
function companionRefuses(code: CheckoutErrorCode): Promise<CheckoutResult> {
  return sessionRefused(
    parseFailure(CHECKOUT_ERROR_STATUS[code], { error: { code, message: code, requestId: 'r' } }),
  );
}

/** The real HTTP port's session call with `fetcher`, refused as the model is told. */
async function overHttp(fetcher: () => Promise<Response>): Promise<CheckoutResult> {
  const http = createCompanionHttp('https://shop.example/api/checkout', fetcher as typeof fetch);
  return sessionRefused(await http.startSession({ order: 'order-42' }).catch((error) => error));
}

const HOW = {
  // Why a payment failed.
  payment_failed: () => transferFailed({}),
  transfer_short: () => transferFailed({ reason: 'transfer_short' }),
  bank_declined: () => bankFailed(),
  card_declined: () =>
    cardEnded((card, payment) => card.track(payment, 'card-token', 'FAILED', 'card_declined')),
  verification_failed: () =>
    cardEnded((card, payment) =>
      card.track(payment, 'card-token', 'FAILED', 'verification_failed'),
    ),
  challenge_timeout: () => cardEnded((card, payment) => card.cardTimedOut(payment)),
  // The checkout could not go on.
  expired: () => transferFailed({ reason: 'expired' }),
  no_channels: async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView({ channels: [] }));
    await flush();
    return received(h);
  },
  already_open: async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
    const first = open({ endpoint: '/api/checkout', order: 'order_1042' });
    const second = open({ endpoint: '/api/checkout', order: 'order_2000' });
    first.close();
    return second.result;
  },
  // The companion refused, or could not be reached.
  order_not_found: () => companionRefuses('not_found'),
  unauthorized: () => companionRefuses('unauthorized'),
  rate_limited: () => companionRefuses('rate_limited'),
  invalid: () => companionRefuses('invalid_request'),
  timeout: () => companionRefuses('timeout'),
  conflict: () => companionRefuses('conflict'),
  already_paid: () => companionRefuses('already_paid'),
  payment_pending: () => companionRefuses('payment_pending'),
  internal: () => companionRefuses('channel_unavailable'),
  unavailable: () => overHttp(async () => new Response('<h1>Bad gateway</h1>', { status: 502 })),
  bad_response: () => overHttp(async () => new Response('<html>', { status: 200 })),
  network: () =>
    overHttp(async () => {
      throw new TypeError('Failed to fetch');
    }),
} satisfies Record<CheckoutFailureCode, () => Promise<CheckoutResult>>;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('every failure code reaches the merchant, and no other', () => {
  it.each(Object.keys(HOW) as CheckoutFailureCode[])('%s', async (code) => {
    const result = await HOW[code]();
    expect(result).toMatchObject({ status: 'failed', error: { code } });
  });

  it('a reason the companion never tells a browser (issue 20) is no reason: payment_failed', async () => {
    expect(await transferFailed({ reason: 'insufficient_funds' })).toMatchObject({
      error: { code: 'payment_failed' },
    });
    expect(await transferFailed({ reason: 'card_expired' })).toMatchObject({
      error: { code: 'payment_failed' },
    });
  });

  it('an error the model did not make becomes internal', async () => {
    expect(await sessionRefused(new Error('boom'))).toMatchObject({ error: { code: 'internal' } });
    expect(await sessionRefused(new CompanionFailure('network', 'x'))).toMatchObject({
      error: { code: 'network' },
    });
  });

  it('docs/widget.md lists exactly these codes in its table', () => {
    const docs = readFileSync(resolve(import.meta.dirname, '../../docs/widget.md'), 'utf8');
    const start = docs.indexOf('## Failure codes');
    expect(start).toBeGreaterThan(0);
    const table = docs.slice(start, docs.indexOf('\n#', start + 1));
    const listed = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(Object.keys(HOW).sort());
  });
});
