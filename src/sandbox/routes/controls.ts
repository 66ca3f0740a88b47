/**
 * The controls under `/__sandbox/`, behind the same key: play the customer, move time, inject
 * faults, look inside, start again. Answers are plain JSON, not the provider's envelope: they
 * are ours, not the provider's.
 */

import * as v from 'valibot';
import { toMajor, toMajorText } from '../../protocol';
import { sandboxChannel } from '../channels';
import { createFaultPlan, FaultRuleSchema } from '../faults';
import { failuresOf, json, readJsonBody, refusal } from '../responses';
import { isHttpUrl, majorToMinor } from '../schemas';
import type { PaymentRecord, PayoutRecord } from '../state';
import type { RouteContext } from './payments';

const ConfigRequest = v.strictObject({
  webhookUrl: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.url('must be an absolute URL'),
        v.check(isHttpUrl, 'must be an http: or https: URL'),
      ),
    ),
  ),
  webhookSecret: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.regex(/^(whsec_)?[A-Za-z0-9+/]{16,}={0,2}$/, 'must be whsec_ followed by base64'),
      ),
    ),
  ),
  faults: v.optional(
    v.pipe(v.array(FaultRuleSchema), v.maxLength(50, 'must hold at most 50 rules')),
  ),
  seed: v.optional(v.pipe(v.number(), v.integer('must be a whole number'))),
});

const TransferRequest = v.strictObject({
  amount: v.optional(
    v.pipe(v.number('must be a number'), v.finite(), v.gtValue(0, 'must be greater than 0')),
  ),
});

const BankRequest = v.strictObject({ approve: v.boolean('is required and must be true or false') });

const ClockRequest = v.strictObject({
  advanceSeconds: v.pipe(
    v.number('is required and must be a number'),
    v.finite(),
    v.minValue(0, 'must not be negative: time only moves forward'),
    v.maxValue(366 * 24 * 3600, 'must be at most a year'),
  ),
});

function badRequest(failures: readonly string[]): Response {
  return json(400, { error: 'invalid_request', failures });
}

/** Controls with an optional body: an empty body is `{}`. */
async function optionalBody(
  request: Request,
): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  if (request.headers.get('content-length') === '0' || !request.headers.get('content-type')) {
    const text = await request.text();
    if (text.trim() === '') return { ok: true, body: {} };
    return { ok: false, response: badRequest(['Content-Type must be application/json.']) };
  }
  return readJsonBody(request);
}

export function describeConfig({ world }: RouteContext): Response {
  const { webhookUrl, webhookSecret, faults, seed } = world.config;
  // The signing secret is write-only: a control answer is no place to read it back.
  return json(200, { webhookUrl, webhookSecretSet: webhookSecret !== null, faults, seed });
}

export async function configure(context: RouteContext): Promise<Response> {
  const { world, request } = context;
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(ConfigRequest, read.body);
  if (!parsed.success) return badRequest(failuresOf(parsed.issues));
  const input = parsed.output;
  if (input.webhookUrl !== undefined) world.config.webhookUrl = input.webhookUrl;
  if (input.webhookSecret !== undefined) world.config.webhookSecret = input.webhookSecret;
  if (input.seed !== undefined) world.config.seed = input.seed;
  if (input.faults !== undefined) world.config.faults = input.faults;
  if (input.faults !== undefined || input.seed !== undefined) {
    // New rules or a new seed start their scripts from the top.
    world.faultPlan = createFaultPlan(world.config.faults, world.config.seed, world.clock.now);
  }
  return describeConfig(context);
}

export function describePayment(record: PaymentRecord, baseUrl: string) {
  const account = record.virtualAccount;
  return {
    reference: record.reference,
    paymentReference: record.reference,
    channel: record.channel,
    status: record.status,
    stage: record.stage,
    amount: toMajor(record.amountMinor, record.currency),
    amountMinor: record.amountMinor,
    currency: record.currency,
    feesMinor: record.feesMinor,
    paidMinor: record.paidMinor,
    failureReason: record.failureReason,
    linkAlias: record.linkAlias,
    virtualAccount: account
      ? {
          bank: account.bank,
          accountNumber: account.accountNumber,
          accountName: account.accountName,
          expiration: new Date(account.expiresAt).toISOString(),
        }
      : null,
    bankAuthUrl: sandboxChannel(record.channel).authUrl(record, baseUrl),
    card: record.card ? { last4: record.card.last4 } : null,
    challenge: record.challenge,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

export function describePayout(record: PayoutRecord) {
  return {
    reference: record.reference,
    tenantReference: record.tenantReference,
    status: record.status,
    amount: String(record.amountMinor),
    currency: record.currency,
    beneficiaryAccountNumber: record.beneficiaryAccountNumber,
    beneficiaryAccountName: record.beneficiaryAccountName,
    failureReason: record.failureReason,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

export function listPayments({ world, baseUrl }: RouteContext): Response {
  return json(200, {
    payments: [...world.state.payments.values()].map((record) => describePayment(record, baseUrl)),
  });
}

export function listPayouts({ world }: RouteContext): Response {
  return json(200, { payouts: [...world.state.payouts.values()].map(describePayout) });
}

export function listWebhooks({ world }: RouteContext): Response {
  return json(200, {
    webhooks: world.webhooks.deliveries.map(({ body, ...delivery }) => ({
      ...delivery,
      payload: JSON.parse(body) as unknown,
    })),
  });
}

export function listWallets({ world }: RouteContext): Response {
  return json(200, {
    wallets: Object.fromEntries(
      [...world.state.wallets].map(([currency, minor]) => [
        currency,
        { balanceMinor: minor, balance: toMajorText(minor, currency) },
      ]),
    ),
  });
}

/** The customer transfers into the virtual account; `amount` (major units) for under- or over-payment. */
export async function transfer({
  world,
  request,
  params,
  baseUrl,
}: RouteContext): Promise<Response> {
  const read = await optionalBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(TransferRequest, read.body);
  if (!parsed.success) return badRequest(failuresOf(parsed.issues));
  const record = world.ledger.payment(params.reference ?? '');
  let amountMinor: number | undefined;
  if (parsed.output.amount !== undefined) {
    const minor = majorToMinor(parsed.output.amount, record.currency, 'amount');
    if (!minor.ok) return badRequest([minor.failure]);
    amountMinor = minor.minor;
  }
  world.ledger.transfer(record.reference, amountMinor);
  return json(200, { payment: describePayment(record, baseUrl) });
}

export async function bank({ world, request, params, baseUrl }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(BankRequest, read.body);
  if (!parsed.success) return badRequest(failuresOf(parsed.issues));
  const record = world.ledger.bank(params.reference ?? '', parsed.output.approve);
  return json(200, { payment: describePayment(record, baseUrl) });
}

export function reverse({ world, params }: RouteContext): Response {
  return json(200, { payout: describePayout(world.ledger.reversePayout(params.reference ?? '')) });
}

export async function moveClock({ world, request }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(ClockRequest, read.body);
  if (!parsed.success) return badRequest(failuresOf(parsed.issues));
  world.clock.advance(parsed.output.advanceSeconds);
  return json(200, { now: new Date(world.clock.now()).toISOString() });
}

export function notAControl(path: string): Response {
  return refusal(404, `There is no sandbox control at ${path}.`);
}
