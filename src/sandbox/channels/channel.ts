/**
 * What a channel is in the sandbox: one object per channel, exported by its folder's index.ts
 * and listed once in SANDBOX_CHANNELS (index.ts beside this file). The routes, the ledger and the
 * controls ask it instead of naming the channel; its own moves (a transfer arriving, the bank's
 * decision, a card's challenge) and its pages live in its folder.
 */
import type { WireInitiation } from '../../protocol';
import type { PaymentRecord } from '../records';
import type { InitiationInput } from '../schemas';

/** What a channel's moves may use of the ledger around them. */
export interface PaymentMoves {
  readonly now: () => number;
  /** Runs `then` when the sandbox's clock reaches `at`. */
  readonly schedule: (at: number, then: () => void) => void;
  /** The one way a payment reaches a final status: once, with its webhook. */
  readonly settle: (
    record: PaymentRecord,
    status: 'SUCCESSFUL' | 'FAILED',
    reason: string | null,
  ) => void;
}

export interface SandboxChannel {
  /** Its fixed id, so that validate answers the same in every sandbox. */
  readonly id: string;
  /** The currencies it takes. */
  readonly currencies: readonly string[];
  /** What validate says it is. */
  readonly description: string;
  /** Whether an initiation of it carries a card (and must). */
  readonly takesCard: boolean;
  /** The rules of initiation of its own (a field it needs), as the provider words them. */
  refusals(input: InitiationInput): string[];
  /**
   * Sets a new payment of it on its way: its stage, and what it is paid by (an account, a
   * challenge), with any timer it needs. `accountName`: whom an account is named for.
   */
  open(record: PaymentRecord, accountName: string, moves: PaymentMoves): void;
  /** Where the customer authorises it (the bank's page), or null. */
  authUrl(record: PaymentRecord, baseUrl: string): string | null;
  /** What initiation answers for it: the status the provider gives and what to do next. */
  initiated(record: PaymentRecord): Pick<WireInitiation, 'paymentStatus' | 'message'>;
}
