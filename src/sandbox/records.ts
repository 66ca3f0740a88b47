/**
 * What the sandbox keeps of each payment, link and payout: plain types, in a module of their own
 * so that the channels' sandbox behaviour (channels/<channel>) and the state that calls it can
 * both name them without importing each other.
 */
import type { Channel, PaymentStatus, PayoutStatus } from '../protocol';
import type { CardBehaviour } from './test-data';

export interface VirtualAccountRecord {
  readonly bank: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly note: string;
  readonly expiresAt: number;
}

/** Where a payment is in its channel's journey; `status` is what the status operation says. */
export type PaymentStage =
  | 'awaiting-transfer'
  | 'awaiting-bank'
  | 'authorised'
  | 'awaiting-authentication'
  | 'ready-to-finalize'
  | 'done';

export interface PaymentRecord {
  readonly reference: string;
  readonly channel: Channel;
  readonly currency: string;
  readonly amountMinor: number;
  readonly feesMinor: number;
  readonly createdAt: number;
  readonly linkAlias: string | null;
  readonly customerEmail: string | null;
  status: PaymentStatus;
  stage: PaymentStage;
  failureReason: string | null;
  updatedAt: number;
  virtualAccount: VirtualAccountRecord | null;
  returnUrl: string | null;
  redirect: boolean;
  /** Card payments keep only what a receipt shows, never the number or the CVC. */
  card: { readonly last4: string; readonly behaviour: CardBehaviour } | null;
  challenge: 'not-needed' | 'required' | 'passed' | 'failed';
  paidMinor: number | null;
}

export interface LinkRecord {
  readonly id: string;
  readonly alias: string;
  readonly name: string;
  readonly description: string;
  readonly linkType: 'OneTime' | 'Reusable';
  readonly amountType: 'static' | 'dynamic';
  readonly currency: string;
  readonly amountMinor: number | null;
  readonly createdAt: number;
  /** endpoint 1's `metaData.return-url`: where the hosted page sends the customer back. */
  readonly returnUrl: string | null;
  status: 'New' | 'Paid';
}

export interface PayoutRecord {
  readonly reference: string;
  readonly tenantReference: string;
  /** The accepted request, canonical, to tell a true retry from a clash. */
  readonly fingerprint: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly beneficiaryAccountNumber: string;
  readonly beneficiaryAccountName: string;
  readonly narration: string;
  readonly createdAt: number;
  status: PayoutStatus;
  failureReason: string | null;
  updatedAt: number;
}
