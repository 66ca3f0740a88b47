/**
 * The chaos run of issue 9, shared by its test (200 + 200) and `npm run bench` (1,000 + 1,000):
 * checkouts of every channel (transfer, bank, card with and without a challenge, payment links)
 * and payouts, through a companion in front of a sandbox that faults a given share of provider
 * calls at random (seeded) and shuffles webhooks. Customers behave as the widget does: retry on
 * errors, adopt the earlier payment the companion answers with (`already_paid`,
 * `payment_pending`), ask `/status` after a finalize error. Then it counts what went wrong.
 */
import { serve } from '../../src/node/serve';
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  type CheckoutStore,
  createCheckoutHandler,
  type PaymentOutcome,
  type PayoutOutcome,
} from '../../src/server';
import { FINALIZE_RETRY_MS } from '../../src/widget/channels/card/card-flow';
import { type CompanionRig, companionCall, ORDERS, startCompanion } from './companion';
import { call, fundTransfer, testCard } from './sandbox';

/**
 * How long a test may give one chaos run. A run takes 10-15 s on a quiet machine; beside a second
 * copy of the suite on 2 cores, runs passed 90 s (the steady check, session 10: the memory run
 * and the two-instance PostgreSQL one). A hang still fails, in 4 minutes.
 */
export const CHAOS_RUN_TIMEOUT_MS = 240_000;

export interface ChaosOptions {
  readonly checkouts: number;
  readonly payouts: number;
  readonly seed: number;
  /** Share of provider calls faulted, e.g. 0.2. */
  readonly faultChance: number;
  /** Checkouts and payouts in flight at once. */
  readonly concurrency?: number;
  /** Give up waiting for outcomes after this long (real ms). */
  readonly timeoutMs?: number;
  /** The companion's store (issue 10: the same run on SQLite and Redis); default in memory. */
  readonly store?: CheckoutStore;
  /**
   * A second companion instance on this store object on the same data (issue 22: two instances
   * on one PostgreSQL database). Webhooks go to the first; the customers' calls alternate between
   * the two, so a payment begun on one is finished, watched or reconciled on the other.
   */
  readonly secondStore?: CheckoutStore;
}

export interface ChaosReport {
  readonly seed: number;
  /** Payments or payouts that ended at the provider with no outcome reported. */
  readonly lost: string[];
  /** Outcomes reported twice, or an order charged twice. */
  readonly doubled: string[];
  /** Outcomes that differ from what happened at the provider or what the customer did. */
  readonly wrong: string[];
  /** From the customer's last step (or the payout's send) to the outcome, in real ms. */
  readonly slowestMs: number;
  readonly providerCalls: number;
  readonly elapsedMs: number;
}

type Kind = 'transfer' | 'bank' | 'card' | 'challenge' | 'declined' | 'link-transfer' | 'link-card';
const KINDS: readonly Kind[] = [
  'transfer',
  'bank',
  'card',
  'challenge',
  'declined',
  'link-transfer',
  'link-card',
];

/** Quiet, or with PAYDROP_CHAOS_LOG set, the companions' warnings and errors on stderr. */
const chaosLogger = process.env.PAYDROP_CHAOS_LOG
  ? {
      warn: (message: string, details?: unknown) =>
        console.error(`warn ${message} ${JSON.stringify(details ?? {})}`),
      error: (message: string, details?: unknown) =>
        console.error(`error ${message} ${JSON.stringify(details ?? {})}`),
    }
  : { warn: () => {}, error: () => {} };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The companions' limit on a provider call, and the latency fault that outlasts it. The sandbox,
 * the companions and the customers share this process's one event loop: on a loaded machine an
 * ordinary call took more than 800 ms, and an initiation (never retried: a second one would be a
 * second payment) answered 504 for most of the run, so the customers' part alone took up to
 * a minute and the test's 90 s ran out. 2 s leaves ordinary calls room; the fault still times out.
 */
const PROVIDER_MS = 2000;
const LATENCY_FAULT_MS = 3000;

/**
 * How long a customer waits before pressing "Pay" again after an error (100 ms, doubling, up to
 * a second): the widget never starts a payment again by itself, a person does, so not 20 times a
 * second as the 50 ms retries did, adding their calls to the loaded event loop above.
 */
function againAfter(tries: number): number {
  return Math.min(1000, 100 * 2 ** tries);
}

/** mulberry32, as the sandbox's faults: a run is replayed from its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Checkout {
  readonly id: string;
  readonly kind: Kind;
  /** The order id, or the link's alias. */
  readonly key: string;
  expected: 'SUCCESSFUL' | 'FAILED';
  doneAt: number | null;
}

interface Payout {
  readonly tenantReference: string;
  readonly expected: 'Completed' | 'Failed';
  reference: string | null;
  sentAt: number | null;
}

async function runAll<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const random = seeded(options.seed);
  const links = new Map<string, { amountMinor: number; currency: string; description: string }>();
  const paymentOutcomes: Array<{ outcome: PaymentOutcome; at: number }> = [];
  const payoutOutcomes: Array<{ outcome: PayoutOutcome; at: number }> = [];
  const rig: CompanionRig = await startCompanion(
    {
      resolveLink: (alias) => links.get(alias) ?? null,
      timeouts: { providerMs: PROVIDER_MS },
      // Hundreds of customers played from one loopback address: no per-address limits (issue 20),
      // which a real shop's customers would not meet this way.
      clientAddress: () => null,
      onPaymentOutcome: (outcome) => {
        paymentOutcomes.push({ outcome, at: Date.now() });
      },
      onPayoutOutcome: (outcome) => {
        payoutOutcomes.push({ outcome, at: Date.now() });
      },
      logger: chaosLogger,
      ...(options.store ? { store: options.store } : {}),
    },
    { webhookRetryDelaysMs: [100, 200, 400, 800, 1600, 3200, 6400] },
  );
  let ticking = true;
  let second: SecondInstance | undefined;
  let calls = 0;
  const companion = (method: string, path: string, body?: unknown, token?: string) =>
    companionCall(second && calls++ % 2 ? { ...rig, url: second.url } : rig, method, path, {
      ...(body === undefined ? {} : { body }),
      ...(token ? { token } : {}),
    }).catch(() => ({ status: 0, headers: new Headers(), body: undefined, text: '' }));
  try {
    if (options.secondStore)
      second = await startSecondInstance(rig, {
        resolveLink: (alias) => links.get(alias) ?? null,
        timeouts: { providerMs: PROVIDER_MS },
        clientAddress: () => null,
        onPaymentOutcome: (outcome) => {
          paymentOutcomes.push({ outcome, at: Date.now() });
        },
        onPayoutOutcome: (outcome) => {
          payoutOutcomes.push({ outcome, at: Date.now() });
        },
        logger: chaosLogger,
        store: options.secondStore,
      });
    // Links are made before the faults start: the merchant's back office, not the customer.
    const checkouts: Checkout[] = [];
    for (let index = 0; index < options.checkouts; index++) {
      const kind = KINDS[Math.floor(random() * KINDS.length)] as Kind;
      let key = `order-ngn:chaos-${index}`;
      if (kind === 'bank') key = `order-gbp:chaos-${index}`;
      if (kind.startsWith('link-')) {
        const made = await call(rig.sandbox, 'POST', '/api/payment/payment-link', {
          name: `Chaos ${index}`,
          description: 'Chaos link',
          linkType: 0,
          amountType: 0,
          currencyCode: 'NGN',
          amountInfo: { currencyCode: 'NGN', amount: 1500 },
        });
        key = made.body.value.alias as string;
        links.set(key, { amountMinor: 150_000, currency: 'NGN', description: 'Chaos link' });
      }
      checkouts.push({
        id: `c${index}`,
        kind,
        key,
        expected: kind === 'declined' ? 'FAILED' : 'SUCCESSFUL',
        doneAt: null,
      });
    }
    const payouts: Payout[] = Array.from({ length: options.payouts }, (_, index) => ({
      tenantReference: `chaos-${options.seed}-${index}`,
      expected: random() < 0.2 ? 'Failed' : 'Completed',
      reference: null,
      sentAt: null,
    }));

    const share = options.faultChance / 4;
    await rig.sandbox.request('POST', '/__sandbox/config', {
      seed: options.seed,
      faults: [
        { endpoint: '*', chance: share, step: { type: 'error', status: 503 } },
        { endpoint: '*', chance: share / (1 - share), step: { type: 'drop' } },
        { endpoint: '*', chance: share / (1 - 2 * share), step: { type: 'lostResponse' } },
        {
          endpoint: '*',
          chance: share / (1 - 3 * share),
          step: { type: 'latency', ms: LATENCY_FAULT_MS },
        },
        { endpoint: 'webhook', chance: 0.1, step: { type: 'duplicate' } },
        { endpoint: 'webhook', chance: 0.1, step: { type: 'outOfOrder' } },
      ],
    });

    // Time passes for the sandbox (settlements) and the companion (its backoff) alike.
    const ticker = (async () => {
      while (ticking) {
        await rig.advance(1).catch(() => undefined);
        await second?.advance(1).catch(() => undefined);
        await pause(100);
      }
    })();

    async function session(checkout: Checkout): Promise<string> {
      const body = checkout.kind.startsWith('link-')
        ? { link: checkout.key }
        : { order: checkout.key };
      for (let tries = 0; ; tries++) {
        const answer = await companion('POST', '/session', body);
        if (answer.status === 200) return answer.body.token as string;
        await pause(againAfter(tries));
      }
    }

    /** Initiates, or adopts the earlier payment the companion points at. */
    async function initiate(
      sessionToken: string,
      channel: string,
      extra: Record<string, unknown>,
    ): Promise<{ token: string; reference: string; status: string; virtual: boolean }> {
      for (let tries = 0; ; tries++) {
        const answer = await companion('POST', '/initiate', { channel, ...extra }, sessionToken);
        if (answer.status === 200) {
          return {
            token: answer.body.token,
            reference: answer.body.payment.reference,
            status: answer.body.payment.status,
            virtual: answer.body.payment.virtualAccount !== null,
          };
        }
        const code = answer.body?.error?.code;
        if ((code === 'already_paid' || code === 'payment_pending') && answer.body.payment) {
          return {
            token: answer.body.token,
            reference: answer.body.payment.reference,
            status: answer.body.payment.status,
            virtual: false,
          };
        }
        await pause(againAfter(tries));
      }
    }

    async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        await pause(100);
      }
    }

    async function finalStatus(token: string): Promise<void> {
      await until(async () => {
        const answer = await companion('GET', '/status', undefined, token);
        const status = answer.body?.status;
        return status === 'SUCCESSFUL' || status === 'FAILED' ? status : undefined;
      });
    }

    async function pay(checkout: Checkout): Promise<void> {
      const sessionToken = await session(checkout);
      if (checkout.kind === 'transfer' || checkout.kind === 'link-transfer') {
        const payment = await initiate(sessionToken, 'PayByTransfer', {});
        await until(async () => {
          const paid = await rig.sandbox
            .request('POST', `/__sandbox/payments/${payment.reference}/transfer`)
            .catch(() => undefined);
          return paid && (paid.ok || paid.status === 409) ? true : undefined;
        });
        checkout.doneAt = Date.now();
        return; // the customer closes the tab: only the webhook and reconciliation remain
      }
      if (checkout.kind === 'bank') {
        const payment = await initiate(sessionToken, 'PayByAccount', {});
        await until(async () => {
          const approved = await rig.sandbox
            .request('POST', `/__sandbox/payments/${payment.reference}/bank`, { approve: true })
            .catch(() => undefined);
          return approved && (approved.ok || approved.status === 409) ? true : undefined;
        });
        checkout.doneAt = Date.now();
        await companion('GET', `/return?reference=${encodeURIComponent(payment.reference)}`);
        await finalStatus(payment.token);
        return;
      }
      const number =
        checkout.kind === 'challenge'
          ? '4000000000003220'
          : checkout.kind === 'declined'
            ? '4000000000000002'
            : '4242424242424242';
      const payment = await initiate(sessionToken, 'Card', { card: testCard(number) });
      if (payment.status === 'PENDING') {
        const needs = await until(async () => {
          const answer = await companion('POST', '/authenticate', undefined, payment.token);
          if (answer.status === 200) return answer.body.authenticationRequired as boolean;
          // An earlier payment being settled has nothing left to authenticate.
          return answer.status === 409 ? false : undefined;
        });
        if (needs) {
          await until(async () => {
            const form = new URLSearchParams({ code: '123456' });
            const passed = await fetch(
              `${rig.sandbox.url}/pages/challenge/${encodeURIComponent(payment.reference)}`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: form,
              },
            ).catch(() => undefined);
            return passed?.ok ? true : undefined;
          });
        }
        checkout.doneAt = Date.now();
        // As the widget does (FINALIZE_RETRY_MS): no answer, or a 5xx, and finalize is sent
        // again, for it may never have reached a companion; a repeat is settled, never charged.
        for (const wait of [0, ...FINALIZE_RETRY_MS]) {
          await pause(wait);
          const answer = await companion('POST', '/finalize', undefined, payment.token);
          if (answer.status !== 0 && answer.status < 500) break;
        }
      } else checkout.doneAt = Date.now();
      // Whatever finalize answered, the widget now asks for status until it is final.
      await finalStatus(payment.token);
    }

    async function sendPayout(payout: Payout): Promise<void> {
      const body = fundTransfer({
        tenantReference: payout.tenantReference,
        ...(payout.expected === 'Failed' ? { beneficiaryAccountNumber: '0000000000' } : {}),
      });
      // A retry after any failure reuses the tenantReference: one transfer however often.
      payout.reference = await until(async () => {
        const sent = await call(
          rig.sandbox,
          'POST',
          '/payout/Disbursement/Payout/FundTransfer',
          body,
        ).catch(() => undefined);
        return sent && sent.status < 300 ? (sent.body.value.reference as string) : undefined;
      });
      payout.sentAt = Date.now();
    }

    const concurrency = options.concurrency ?? 24;
    await Promise.all([
      runAll(checkouts, concurrency, pay),
      runAll(payouts, Math.max(1, Math.floor(concurrency / 3)), sendPayout),
    ]);

    // Every outcome must arrive without any browser asking: webhooks, jobs, reconciliation.
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    const expectedPayments = async () => {
      const payments = (await rig.sandbox
        .request('GET', '/__sandbox/payments')
        .then((r) => r.json())) as {
        payments: Array<{ reference: string; status: string }>;
      };
      return payments.payments;
    };
    for (;;) {
      const listed = await expectedPayments().catch(() => undefined);
      if (!listed) {
        if (Date.now() > deadline) break;
        await pause(100);
        continue;
      }
      const finals = listed.filter((payment) => payment.status !== 'PENDING');
      const reported = new Set(paymentOutcomes.map((entry) => entry.outcome.reference));
      const payoutsDone = payouts.every((payout) =>
        payoutOutcomes.some(
          (entry) =>
            entry.outcome.reference === payout.reference &&
            entry.outcome.status === payout.expected,
        ),
      );
      if (finals.every((payment) => reported.has(payment.reference)) && payoutsDone) break;
      if (Date.now() > deadline) break;
      await pause(100);
    }
    await pause(300); // anything reported twice has had its chance to show
    ticking = false;
    await ticker;
    await rig.handler.idle();
    await second?.handler.idle();

    // The count.
    const lost: string[] = [];
    const doubled: string[] = [];
    const wrong: string[] = [];
    let slowestMs = 0;
    const atProvider = await expectedPayments();
    const byReference = new Map<string, PaymentOutcome[]>();
    for (const { outcome } of paymentOutcomes) {
      byReference.set(outcome.reference, [...(byReference.get(outcome.reference) ?? []), outcome]);
    }
    for (const payment of atProvider) {
      const reported = byReference.get(payment.reference) ?? [];
      if (payment.status === 'PENDING') continue;
      if (reported.length === 0) lost.push(`payment ${payment.reference} ${payment.status}`);
      if (reported.length > 1)
        doubled.push(`payment ${payment.reference} reported ${reported.length}×`);
      if (reported[0] && reported[0].status !== payment.status) {
        wrong.push(
          `payment ${payment.reference}: ${reported[0].status}, provider ${payment.status}`,
        );
      }
    }
    for (const checkout of checkouts) {
      const mine = paymentOutcomes.filter(
        ({ outcome }) => outcome.orderId === checkout.key || outcome.linkAlias === checkout.key,
      );
      const successes = mine.filter(({ outcome }) => outcome.status === 'SUCCESSFUL');
      if (new Set(successes.map(({ outcome }) => outcome.reference)).size > 1) {
        doubled.push(`${checkout.id} (${checkout.kind}) charged ${successes.length}×`);
      }
      const final = checkout.expected === 'SUCCESSFUL' ? successes[0] : mine[0];
      if (!final) {
        lost.push(`${checkout.id} (${checkout.kind}) no outcome`);
        continue;
      }
      if (final.outcome.status !== checkout.expected || final.outcome.duplicate) {
        wrong.push(`${checkout.id} (${checkout.kind}) ${final.outcome.status}`);
      }
      if (checkout.doneAt !== null) slowestMs = Math.max(slowestMs, final.at - checkout.doneAt);
    }
    const sandboxPayouts = (
      (await rig.sandbox.request('GET', '/__sandbox/payouts').then((r) => r.json())) as {
        payouts: Array<{ tenantReference: string; status: string }>;
      }
    ).payouts;
    const webhooks = (
      (await rig.sandbox.request('GET', '/__sandbox/webhooks').then((r) => r.json())) as {
        webhooks: Array<{ reference: string; event: string; state: string }>;
      }
    ).webhooks;
    for (const payout of payouts) {
      const mine = payoutOutcomes.filter(({ outcome }) => outcome.reference === payout.reference);
      const statuses = mine.map(({ outcome }) => outcome.status);
      if (statuses.length === 0) {
        const atSandbox = sandboxPayouts.find(
          (entry) => entry.tenantReference === payout.tenantReference,
        );
        const hooks = webhooks
          .filter((entry) => entry.reference === payout.reference)
          .map((entry) => `${entry.event}:${entry.state}`);
        lost.push(
          `payout ${payout.tenantReference} ${payout.reference} (provider: ${atSandbox?.status}; webhooks: ${hooks.join(', ') || 'none'})`,
        );
        continue;
      }
      if (statuses.length > 1)
        doubled.push(`payout ${payout.tenantReference}: ${statuses.join(', ')}`);
      if (statuses[0] !== payout.expected)
        wrong.push(`payout ${payout.tenantReference}: ${statuses[0]}`);
      const first = mine[0];
      if (first && payout.sentAt !== null)
        slowestMs = Math.max(slowestMs, first.at - payout.sentAt);
    }
    return {
      seed: options.seed,
      lost,
      doubled,
      wrong,
      slowestMs,
      providerCalls: rig.providerCalls.length,
      elapsedMs: Date.now() - started,
    };
  } finally {
    ticking = false;
    await second?.close();
    await rig.close();
  }
}

interface SecondInstance {
  readonly url: string;
  readonly handler: CheckoutHandler;
  /** Its clock `seconds` forward (the first's advance moves the sandbox's), then its due work. */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/** Another companion in front of the rig's sandbox, as a second instance behind a balancer. */
async function startSecondInstance(
  rig: CompanionRig,
  overrides: Partial<CheckoutHandlerOptions>,
): Promise<SecondInstance> {
  let offsetMs = 0;
  const handler = createCheckoutHandler({
    secretKey: rig.sandbox.secretKey,
    baseUrl: rig.sandbox.url,
    resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
    cardEntry: 'direct',
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      rig.providerCalls.push({ method: init?.method ?? 'GET', path: url.pathname + url.search });
      return fetch(input, init);
    },
    now: () => Date.now() + offsetMs,
    ...overrides,
  });
  const running = await serve(handler);
  return {
    url: `${running.url}/api/checkout`,
    handler,
    async advance(seconds) {
      offsetMs += seconds * 1000;
      await handler.runDue();
    },
    async close() {
      handler.close();
      await running.close();
    },
  };
}
