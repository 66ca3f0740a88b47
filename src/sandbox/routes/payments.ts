/**
 * Endpoints 2 to 6: validate channels, initiate, authenticate, finalize, status.
 */
import * as v from 'valibot';
import {
  type Channel,
  toMajor,
  toMajorText,
  type WireAuthentication,
  type WireInitiation,
  type WirePaymentStatus,
  type WireValidation,
} from '../../protocol';
import { SANDBOX_CHANNEL_NAMES, SANDBOX_CHANNELS, sandboxChannel } from '../channels';
import { challengeHtml } from '../channels/card/pages';
import { failuresOf, readJsonBody, refusal, success, validationFailure } from '../responses';
import {
  FinalizeRequest,
  type InitiationInput,
  InitiationRequest,
  majorToMinor,
  ValidateRequest,
} from '../schemas';
import { type PaymentRecord, SandboxRefusal } from '../state';
import { STATUS_QUERIES_PER_SECOND, TEST_CARDS } from '../test-data';
import type { World } from '../world';

export interface RouteContext {
  readonly world: World;
  readonly request: Request;
  /** The sandbox's own absolute base URL, for the pages it links to. */
  readonly baseUrl: string;
  readonly params: Readonly<Record<string, string>>;
}

function takes(channel: Channel, currency: string): boolean {
  return SANDBOX_CHANNELS[channel].currencies.includes(currency);
}

/** The channels that take a card, as the refusal of a card sent to another one names them. */
const CARD_CHANNELS = SANDBOX_CHANNEL_NAMES.filter((name) => SANDBOX_CHANNELS[name].takesCard);

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
    if (!SANDBOX_CHANNEL_NAMES.includes(name as Channel)) {
      failures.push(
        `channels.${index} "${name}" is not a channel (${SANDBOX_CHANNEL_NAMES.join(', ')}).`,
      );
    }
  }
  if (failures.length > 0) return validationFailure(failures);
  const wanted = channels
    ? SANDBOX_CHANNEL_NAMES.filter((name) => channels.includes(name))
    : SANDBOX_CHANNEL_NAMES;
  const eligible = wanted.filter((name) => takes(name, amount.currencyCode));
  const value: WireValidation = {
    isValid: eligible.length > 0,
    channels: eligible.map((name) => ({
      id: SANDBOX_CHANNELS[name].id,
      name,
      alias: name,
      description: SANDBOX_CHANNELS[name].description,
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
  const channel = sandboxChannel(input.channel);
  const failures: string[] = [];
  if (!takes(input.channel, input.currency)) {
    failures.push(
      `currency must suit the channel: ${input.channel} takes ${channel.currencies.join(' or ')}, not ${input.currency}.`,
    );
  }
  const minor = majorToMinor(input.amount, input.currency, 'amount');
  if (!minor.ok) failures.push(minor.failure);
  failures.push(...channel.refusals(input));
  if (!channel.takesCard && input.card) {
    failures.push(`card is only for ${CARD_CHANNELS.join(' or ')} payments.`);
  }
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
  const channel = sandboxChannel(record.channel);
  const authUrl = channel.authUrl(record, baseUrl);
  const account = record.virtualAccount;
  const { paymentStatus, message } = channel.initiated(record);
  return {
    paymentStatus,
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
