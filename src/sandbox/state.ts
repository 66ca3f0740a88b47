/**
 * What one sandbox holds: payments, links, payouts and wallets, and the only moves between
 * their states that provider-api.md and DESIGN.md allow. Every refusal is a SandboxRefusal with
 * the HTTP status it becomes; the routes turn it into the provider's envelope.
 */
import { type PayoutStatus, toMajor, type WireWebhookEventName } from '../protocol';
import { type PaymentMoves, sandboxChannel } from './channels';
import { bankDecided } from './channels/bank';
import { authenticationChecked, cardFinalized, challengeCompleted } from './channels/card';
import { transferArrived } from './channels/transfer';
import type { SandboxClock } from './clock';
import type { LinkRecord, PaymentRecord, PayoutRecord } from './records';
import { SandboxRefusal } from './refusal';
import { FAILING_ACCOUNT_NUMBER, SETTLEMENT_DELAY_MS, STARTING_WALLETS } from './test-data';

export type {
  LinkRecord,
  PaymentRecord,
  PaymentStage,
  PayoutRecord,
  VirtualAccountRecord,
} from './records';
export { SandboxRefusal } from './refusal';

/** A webhook the state wants sent; the dispatcher adds id, timestamp and delivery. */
export interface WebhookIntent {
  readonly event: WireWebhookEventName;
  readonly data: Record<string, unknown> & { reference: string; status: string };
}

export interface SandboxState {
  readonly payments: Map<string, PaymentRecord>;
  readonly links: Map<string, LinkRecord>;
  readonly payouts: Map<string, PayoutRecord>;
  readonly payoutsByTenant: Map<string, PayoutRecord>;
  readonly wallets: Map<string, number>;
  /** Creation order of payments and payouts, for the transaction list's stable order. */
  readonly ledger: Array<{ kind: 'payment' | 'payout'; reference: string }>;
}

export function createState(): SandboxState {
  return {
    payments: new Map(),
    links: new Map(),
    payouts: new Map(),
    payoutsByTenant: new Map(),
    wallets: new Map(Object.entries(STARTING_WALLETS)),
    ledger: [],
  };
}

export interface SandboxLedgerOptions {
  readonly state: SandboxState;
  readonly clock: SandboxClock;
  readonly emit: (intent: WebhookIntent) => void;
}

export function createReference(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  const text = Array.from(bytes, (byte) => byte.toString(36).padStart(2, '0'))
    .join('')
    .toUpperCase();
  return `${prefix}_${text.slice(0, 16)}`;
}

/** The state machines. Each method checks the move, makes it, and asks for the webhook. */
export function createLedger({ state, clock, emit }: SandboxLedgerOptions) {
  function payment(reference: string): PaymentRecord {
    const found = state.payments.get(reference);
    if (!found) throw new SandboxRefusal(404, `No payment has the reference "${reference}".`);
    return found;
  }

  function payout(reference: string): PayoutRecord {
    const found = state.payouts.get(reference);
    if (!found) throw new SandboxRefusal(404, `No payout has the reference "${reference}".`);
    return found;
  }

  function paymentEvent(record: PaymentRecord): WebhookIntent {
    return {
      event: record.status === 'SUCCESSFUL' ? 'payment.success' : 'payment.failed',
      data: {
        reference: record.reference,
        paymentReference: record.reference,
        status: record.status === 'SUCCESSFUL' ? 'Successfull' : 'FAILED',
        // Payment amounts on the wire are major units, as on initiation.
        amount: toMajor(record.amountMinor, record.currency),
        currency: record.currency,
        channel: record.channel,
        ...(record.failureReason ? { reason: record.failureReason } : {}),
        // What arrived in a transfer's account (short of the amount when it failed so).
        ...(record.paidMinor !== null
          ? { amountPaid: toMajor(record.paidMinor, record.currency) }
          : {}),
        // Every payment of a link says whose, however it was initiated (the hosted page or
        // endpoint 3 with link.alias), so a merchant can match it without a lookup.
        ...(record.linkAlias ? { link: { alias: record.linkAlias } } : {}),
      },
    };
  }

  /** The one way a payment reaches a final status: once, with its webhook. */
  function settle(record: PaymentRecord, status: 'SUCCESSFUL' | 'FAILED', reason: string | null) {
    if (record.status !== 'PENDING') return;
    if (status === 'SUCCESSFUL' && record.linkAlias) {
      const link = state.links.get(record.linkAlias);
      if (link?.linkType === 'OneTime') {
        if (link.status === 'Paid') {
          return settle(record, 'FAILED', 'The one-time payment link has already been paid.');
        }
        link.status = 'Paid';
      }
    }
    record.status = status;
    record.stage = 'done';
    record.failureReason = reason;
    record.updatedAt = clock.now();
    emit(paymentEvent(record));
  }

  /** What the channels' own moves may do (channels/). */
  const moves: PaymentMoves = {
    now: () => clock.now(),
    schedule: (at, then) => clock.schedule(at, then),
    settle,
  };

  function createPayment(
    init: Omit<
      PaymentRecord,
      | 'status'
      | 'stage'
      | 'failureReason'
      | 'updatedAt'
      | 'createdAt'
      | 'virtualAccount'
      | 'challenge'
      | 'paidMinor'
      | 'reference'
    > & { accountName: string },
  ): PaymentRecord {
    if (init.linkAlias) {
      const link = state.links.get(init.linkAlias);
      if (!link)
        throw new SandboxRefusal(404, `No payment link has the alias "${init.linkAlias}".`);
      if (link.linkType === 'OneTime' && link.status === 'Paid') {
        throw new SandboxRefusal(409, 'This one-time payment link has already been paid.');
      }
    }
    const now = clock.now();
    const reference = createReference('PAY');
    const { accountName, ...rest } = init;
    const record: PaymentRecord = {
      ...rest,
      reference,
      status: 'PENDING',
      stage: 'done',
      failureReason: null,
      createdAt: now,
      updatedAt: now,
      virtualAccount: null,
      challenge: 'not-needed',
      paidMinor: null,
    };
    sandboxChannel(record.channel).open(record, accountName, moves);
    state.payments.set(reference, record);
    state.ledger.push({ kind: 'payment', reference });
    return record;
  }

  return {
    payment,
    payout,
    createPayment,

    /** The customer pays into the virtual account (control `/transfer`). */
    transfer(reference: string, amountMinor: number | undefined): PaymentRecord {
      return transferArrived(payment(reference), amountMinor, moves);
    },

    /** The customer approves or declines at the bank (control `/bank`, or the bank page). */
    bank(reference: string, approve: boolean): PaymentRecord {
      return bankDecided(payment(reference), approve, moves);
    },

    /** The cardholder submits the one-time code on the challenge page. */
    completeChallenge(reference: string, passed: boolean): PaymentRecord {
      return challengeCompleted(payment(reference), passed, moves);
    },

    /** The authentication check (endpoint 4) has been made: a card without challenge may finalize. */
    checkAuthentication(reference: string): PaymentRecord {
      return authenticationChecked(payment(reference));
    },

    /** Endpoint 5: a card payment is charged here; other channels report where they stand. */
    finalize(reference: string): PaymentRecord {
      return cardFinalized(payment(reference), moves);
    },

    /** Accepts a fund transfer: debits the wallet now, settles about a second later. */
    acceptPayout(init: {
      tenantReference: string;
      fingerprint: string;
      amountMinor: number;
      currency: string;
      beneficiaryAccountNumber: string;
      beneficiaryAccountName: string;
      narration: string;
    }): { record: PayoutRecord; created: boolean } {
      const existing = state.payoutsByTenant.get(init.tenantReference);
      if (existing) {
        if (existing.fingerprint !== init.fingerprint) {
          throw new SandboxRefusal(
            409,
            `tenantReference "${init.tenantReference}" was already used for a different transfer; the original stands.`,
          );
        }
        return { record: existing, created: false };
      }
      const balance = state.wallets.get(init.currency) ?? 0;
      if (init.amountMinor > balance) {
        throw new InsufficientBalance(init.amountMinor, init.currency);
      }
      state.wallets.set(init.currency, balance - init.amountMinor);
      const now = clock.now();
      const record: PayoutRecord = {
        ...init,
        reference: createReference('PO'),
        createdAt: now,
        updatedAt: now,
        status: 'Pending',
        failureReason: null,
      };
      state.payouts.set(record.reference, record);
      state.payoutsByTenant.set(record.tenantReference, record);
      state.ledger.push({ kind: 'payout', reference: record.reference });
      clock.schedule(now + SETTLEMENT_DELAY_MS, () => {
        if (record.beneficiaryAccountNumber === FAILING_ACCOUNT_NUMBER) {
          movePayout(record, 'Failed', 'Invalid beneficiary account details.');
        } else {
          movePayout(record, 'Completed', null);
        }
      });
      return { record, created: true };
    },

    /** Control `/reverse`: the receiving bank returns a completed payout. */
    reversePayout(reference: string): PayoutRecord {
      const record = payout(reference);
      if (record.status !== 'Completed') {
        throw new SandboxRefusal(
          409,
          `Only a Completed payout can be reversed; payout ${reference} is ${record.status}.`,
        );
      }
      movePayout(record, 'Reversed', 'Returned by the receiving bank.');
      return record;
    },
  };

  /** The only payout moves of provider-api.md; funds return to the wallet on Failed and Reversed. */
  function movePayout(record: PayoutRecord, next: PayoutStatus, reason: string | null): void {
    const allowed =
      (record.status === 'Pending' && (next === 'Completed' || next === 'Failed')) ||
      (record.status === 'Completed' && next === 'Reversed');
    if (!allowed) return;
    record.status = next;
    record.failureReason = reason;
    record.updatedAt = clock.now();
    if (next === 'Failed' || next === 'Reversed') {
      state.wallets.set(
        record.currency,
        (state.wallets.get(record.currency) ?? 0) + record.amountMinor,
      );
    }
    const event =
      next === 'Completed'
        ? 'payout.success'
        : next === 'Failed'
          ? 'payout.failed'
          : 'payout.reversed';
    emit({
      event,
      data: {
        reference: record.reference,
        tenantReference: record.tenantReference,
        status: next,
        amount: String(record.amountMinor),
        currency: record.currency,
        ...(reason ? { reason } : {}),
      },
    });
  }
}

export type SandboxLedger = ReturnType<typeof createLedger>;

/** A fund transfer above the wallet's balance: answered exactly as provider-api.md shows. */
export class InsufficientBalance extends Error {
  override readonly name = 'InsufficientBalance' as const;
  constructor(amountMinor: number, currency: string) {
    super(`Wallet balance is not sufficient for the amount ${amountMinor} ${currency}.`);
  }
}
