/**
 * Endpoints 2 to 6: validate channels, initiate, authenticate, finalize, status.
 */
import * as v from 'valibot';
import {
  CHANNELS,
  type Channel,
  toMajor,
  toMajorText,
  type WireAuthentication,
  type WireInitiation,
  type WirePaymentStatus,
  type WireValidation,
} from '../../protocol';
import { challengeHtml } from '../pages';
import { failuresOf, readJsonBody, refusal, success, validationFailure } from '../responses';
import {
  FinalizeRequest,
  type InitiationInput,
  InitiationRequest,
  majorToMinor,
  ValidateRequest,
} from '../schemas';
import { type PaymentRecord, SandboxRefusal } from '../state';
import {
  CHANNEL_CURRENCIES,
  CHANNEL_IDS,
  STATUS_QUERIES_PER_SECOND,
  TEST_CARDS,
} from '../test-data';
import type { World } from '../world';

export interface RouteContext {
  readonly world: World;
  readonly request: Request;
  /** The sandbox's own absolute base URL, for the pages it links to. */
  readonly baseUrl: string;
  readonly params: Readonly<Record<string, string>>;
}

const CHANNEL_DESCRIPTIONS: Record<Channel, string> = {
  PayByTransfer: 'Pay by bank transfer into a one-time virtual account.',
  PayByAccount: 'Pay from your bank account through your banking app.',
  Card: 'Pay by debit or credit card.',
};

function takes(channel: Channel, currency: string): boolean {
  return (CHANNEL_CURRENCIES[channel] as readonly string[]).includes(currency);
}

/** Endpoint 2. */
export async function validateChannels({ request }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(ValidateRequest, read.body);
  if (!parsed.success) return validationFailure(failuresOf(parsed.issues));
  const { amount, channels } = parsed.output;
  const failures: string[] = [];
  const minor = majorToMinor(amount.amount, amount.currencyCode, 'amount.amount');
  if (!minor.ok) failures.push(minor.failure);
  for (const [index, name] of (channels ?? []).entries()) {
    if (!CHANNELS.includes(name as Channel)) {
      failures.push(`channels.${index} "${name}" is not a channel (${CHANNELS.join(', ')}).`);
    }
  }
  if (failures.length > 0) return validationFailure(failures);
  const wanted = channels ? CHANNELS.filter((name) => channels.includes(name)) : CHANNELS;
  const eligible = wanted.filter((name) => takes(name, amount.currencyCode));
  const value: WireValidation = {
    isValid: eligible.length > 0,
    channels: eligible.map((name) => ({
      id: CHANNEL_IDS[name],
      name,
      alias: name,
      description: CHANNEL_DESCRIPTIONS[name],
    })),
  };
  return success(
    value,
    value.isValid ? 'Channels are available.' : `No channel takes ${amount.currencyCode} here.`,
  );
}

/** A card is good to the end of its expiry month (UTC, on the sandbox's clock). */
export function expiryHasPassed(month: number, year: number, now: number): boolean {
  const current = new Date(now);
  return year * 12 + month < current.getUTCFullYear() * 12 + current.getUTCMonth() + 1;
}

/** The rules of initiation that depend on several fields or on the sandbox's state. */
function initiationFailures(input: InitiationInput, now: number): string[] {
  const failures: string[] = [];
  if (!takes(input.channel, input.currency)) {
    failures.push(
      `currency must suit the channel: ${input.channel} takes ${CHANNEL_CURRENCIES[input.channel].join(' or ')}, not ${input.currency}.`,
    );
  }
  const minor = majorToMinor(input.amount, input.currency, 'amount');
  if (!minor.ok) failures.push(minor.failure);
  if (input.channel === 'PayByAccount' && !input.metaData?.['return-url']) {
    failures.push('metaData.return-url is required for PayByAccount.');
  }
  if (input.channel === 'Card' && !input.card) failures.push('card is required for Card payments.');
  if (input.channel !== 'Card' && input.card) failures.push('card is only for Card payments.');
  if (input.card) {
    const { expiryMonth, expiryYear } = input.card;
    if (expiryHasPassed(expiryMonth, expiryYear, now)) {
      failures.push(
        `card has an expiry date in the past (${String(expiryMonth).padStart(2, '0')}/${expiryYear}).`,
      );
    }
  }
  return failures;
}

function wireInitiation(record: PaymentRecord, baseUrl: string): WireInitiation {
  const amount = toMajor(record.amountMinor, record.currency);
  const fees = toMajor(record.feesMinor, record.currency);
  const authUrl =
    record.channel === 'PayByAccount'
      ? `${baseUrl}/pages/bank/${encodeURIComponent(record.reference)}`
      : null;
  const account = record.virtualAccount;
  const message =
    record.channel === 'PayByTransfer'
      ? 'Transfer the amount to the account below.'
      : record.channel === 'PayByAccount'
        ? 'Authorise the payment at your bank.'
        : 'Check whether the card needs authentication, then finalize.';
  return {
    paymentStatus:
      record.channel === 'PayByTransfer'
        ? 'REQUIRE_USER_OFFLINE_ACTION'
        : record.channel === 'PayByAccount'
          ? 'REQUIRE_BANK_AUTH'
          : 'PENDING',
    message,
    bankAuthURL: authUrl,
    paymentItem: {
      channel: record.channel,
      message,
      amount,
      fees,
      reference: record.reference,
      paymentReference: record.reference,
      metaData: account
        ? {
            'transfer-info': {
              note: account.note,
              bank: account.bank,
              account_number: account.accountNumber,
              account_name: account.accountName,
              expiration: new Date(account.expiresAt).toISOString(),
              mode: 'banktransfer',
            },
          }
        : authUrl
          ? { AuthUrl: authUrl }
          : {},
    },
  };
}

/** Endpoint 3. */
export async function initiate({ world, request, baseUrl }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(InitiationRequest, read.body);
  if (!parsed.success) return validationFailure(failuresOf(parsed.issues));
  const started = startPayment(world, parsed.output);
  if (!started.ok) return validationFailure(started.failures);
  return success(wireInitiation(started.record, baseUrl), 'Payment initiated.');
}

/**
 * Endpoint 3's work on a parsed request: its rules, the link's, then the payment. The hosted link
 * page pays a card through here too, so a payment made there is the very one endpoint 3 makes
 * with `link.alias`. A missing link (404) or a paid one-time link (409) throws SandboxRefusal.
 */
export function startPayment(
  world: World,
  input: InitiationInput,
): { ok: true; record: PaymentRecord } | { ok: false; failures: string[] } {
  const failures = initiationFailures(input, world.clock.now());
  if (failures.length > 0) return { ok: false, failures };
  const amountMinor = majorToMinor(input.amount, input.currency, 'amount');
  if (!amountMinor.ok) return { ok: false, failures: [amountMinor.failure] };

  const alias = input.link?.alias ?? null;
  if (alias) {
    const link = world.state.links.get(alias);
    if (!link) throw new SandboxRefusal(404, `No payment link has the alias "${alias}".`);
    if (link.currency !== input.currency) {
      return {
        ok: false,
        failures: [`currency must be ${link.currency}, the currency of link "${alias}".`],
      };
    }
    if (
      link.amountType === 'static' &&
      link.amountMinor !== null &&
      link.amountMinor !== amountMinor.minor
    ) {
      return {
        ok: false,
        failures: [
          `amount must be ${toMajorText(link.amountMinor, link.currency)}, the fixed amount of link "${alias}".`,
        ],
      };
    }
  }
  const card = input.card;
  const customer = input.userInformation;
  const record = world.ledger.createPayment({
    channel: input.channel,
    currency: input.currency,
    amountMinor: amountMinor.minor,
    feesMinor: 0,
    linkAlias: alias,
    customerEmail: customer?.emailAddress ?? null,
    returnUrl: input.metaData?.['return-url'] ?? null,
    redirect: input.metaData?.redirect ?? true,
    // Only what a receipt shows: the number and the code go no further than this call.
    card: card
      ? { last4: card.number.slice(-4), behaviour: TEST_CARDS[card.number] ?? 'success' }
      : null,
    accountName:
      `Paydrop Sandbox / ${[customer?.firstName, customer?.lastName].filter(Boolean).join(' ') || 'Checkout'}`.slice(
        0,
        60,
      ),
  });
  return { ok: true, record };
}

/** Endpoint 4: does this card payment need a challenge? */
export function authenticate({ world, params, baseUrl }: RouteContext): Response {
  const reference = params.reference ?? '';
  const record = world.ledger.checkAuthentication(reference);
  const amount = `${record.currency} ${toMajorText(record.amountMinor, record.currency)}`;
  const value: WireAuthentication =
    record.challenge === 'required'
      ? {
          status: 'PENDING',
          IsAuthenticationEnabled: true,
          Recommendation: 'Show the challenge to the cardholder, then finalize.',
          message: 'The issuer requires authentication.',
          authenticationhtml: challengeHtml(baseUrl, record.reference, amount),
        }
      : {
          status: record.challenge === 'failed' ? 'FAILED' : 'AUTHENTICATED',
          IsAuthenticationEnabled: false,
          Recommendation:
            record.challenge === 'failed'
              ? 'Ask the customer for another payment method.'
              : 'Proceed to finalize.',
          message:
            record.challenge === 'failed'
              ? 'The cardholder failed authentication.'
              : 'No further authentication is required.',
          authenticationhtml: '',
        };
  return success(value, value.message);
}

function wireStatus(record: PaymentRecord): WirePaymentStatus['paymentStatus'] {
  return record.status === 'SUCCESSFUL' ? 'Successfull' : record.status;
}

function statusMessage(record: PaymentRecord): string {
  if (record.status === 'SUCCESSFUL') return 'Payment successful.';
  if (record.status === 'FAILED') return record.failureReason ?? 'Payment failed.';
  return record.stage === 'authorised'
    ? 'Authorised by the customer; awaiting bank settlement.'
    : 'Payment pending.';
}

/** Endpoint 5. */
export async function finalize({ world, request }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(FinalizeRequest, read.body);
  if (!parsed.success) return validationFailure(failuresOf(parsed.issues));
  const record = world.ledger.finalize(parsed.output.paymentReference);
  const status = wireStatus(record);
  return success({ status, message: statusMessage(record) }, statusMessage(record));
}

/** Endpoint 6, with DESIGN.md's rate limit: more than 5 a second per reference get 429. */
export function paymentStatus({ world, params }: RouteContext): Response {
  const reference = params.reference ?? '';
  const now = world.clock.now();
  const recent = (world.statusQueries.get(reference) ?? []).filter((at) => now - at < 1000);
  if (recent.length >= STATUS_QUERIES_PER_SECOND) {
    const oldest = recent[0] ?? now;
    const retryAfter = Math.max(1, Math.ceil((oldest + 1000 - now) / 1000));
    return refusal(
      429,
      `More than ${STATUS_QUERIES_PER_SECOND} status queries for ${reference} within a second; poll less often.`,
      { 'retry-after': String(retryAfter) },
    );
  }
  recent.push(now);
  world.statusQueries.set(reference, recent);
  const record = world.ledger.payment(reference);
  const value: WirePaymentStatus = {
    paymentReference: record.reference,
    amount: { currencyCode: record.currency, amount: toMajor(record.amountMinor, record.currency) },
    paymentStatus: wireStatus(record),
    ...(record.paidMinor !== null
      ? {
          amountPaid: {
            currencyCode: record.currency,
            amount: toMajor(record.paidMinor, record.currency),
          },
        }
      : {}),
  };
  return success(value, statusMessage(record));
}
