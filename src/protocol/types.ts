/**
 * The clean types the rest of paydrop sees once `parse.ts` has read a provider answer:
 * amounts in minor units, the provider's spellings normalised, optional parts made explicit.
 */
import type { Money } from './money';

/**
 * The payment channels of provider-api.md, listed once: the companion's schemas, the sandbox's
 * tables and the widget's registry (src/widget/channels/index.ts) all derive from this list.
 */
export const CHANNELS = ['PayByTransfer', 'PayByAccount', 'Card'] as const;

export type Channel = (typeof CHANNELS)[number];

/** A payment's status as the status operation reports it (`Successfull` read as SUCCESSFUL). */
export type PaymentStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

/** A payout's state (provider-api.md "Payout states"). Completed, Failed and Reversed are final. */
export type PayoutStatus = 'Pending' | 'Completed' | 'Failed' | 'Reversed';

/** A payment link's type, spelled correctly here (`Reuseable` on the wire). */
export type LinkType = 'OneTime' | 'Reusable';

/** The virtual bank account a PayByTransfer customer pays into. */
export interface VirtualAccount {
  readonly bank: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly note: string;
  /** ISO 8601 UTC instant after which the account no longer takes money. */
  readonly expiresAt: string;
}

/** What initiation returned, for any channel. */
export interface Initiation {
  /** REQUIRE_USER_OFFLINE_ACTION, REQUIRE_BANK_AUTH, or another text the provider sends. */
  readonly paymentStatus: string;
  readonly message: string;
  readonly channel: string;
  readonly reference: string;
  readonly paymentReference: string;
  readonly amount: Money;
  readonly fees: Money;
  /** Present for PayByTransfer. */
  readonly virtualAccount: VirtualAccount | null;
  /** Present for PayByAccount: the bank's authorisation page. */
  readonly bankAuthUrl: string | null;
}

export interface ChannelOption {
  readonly id: string;
  readonly name: string;
  readonly alias: string;
  readonly description: string | null;
}

export interface ChannelValidation {
  readonly isValid: boolean;
  readonly channels: readonly ChannelOption[];
}

export interface AuthenticationCheck {
  readonly status: string;
  readonly authenticationRequired: boolean;
  readonly recommendation: string;
  readonly message: string;
  /** The issuer's challenge page; render only inside a sandboxed frame. Null when none. */
  readonly challengeHtml: string | null;
}

export interface Finalization {
  readonly status: PaymentStatus;
  readonly message: string;
}

export interface PaymentStatusReport {
  readonly paymentReference: string;
  readonly amount: Money;
  readonly paymentStatus: PaymentStatus;
  /** The envelope's message: with FAILED, the provider's words for why (issue 12). */
  readonly message?: string | undefined;
  /**
   * What arrived in a transfer's account, when the provider says (`amountPaid`, a default of
   * ours: provider-api.md shows no such field); absent when it does not, or sent nonsense.
   */
  readonly amountPaid?: Money | undefined;
}

export interface PaymentLink {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly alias: string;
  /** The hosted payment page. */
  readonly url: string;
  readonly amount: Money | null;
  readonly linkType: LinkType;
  readonly status: string;
  readonly createdAt: string;
  readonly environment: string;
}

/** One entry of endpoint 7: what a payout form must ask for in this currency. */
export interface PayoutRequirement {
  /** The routing field required, e.g. BankCode, SortCode, RoutingNumber. */
  readonly name: string;
  readonly currency: string;
  readonly requireFileUpload: boolean;
  readonly paymentDestination: string;
  /** Beneficiary field name → type label. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface FundTransferAccepted {
  readonly reference: string;
  readonly tenantReference: string;
}

export interface TransactionListItem {
  readonly id: string;
  readonly amount: Money;
  readonly status: string;
  /** Every field as the provider sent it, for the fields provider-api.md does not show. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface PageMeta {
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
  readonly perPage: number;
  readonly skipped: number;
}

export interface TransactionPage {
  readonly items: readonly TransactionListItem[];
  readonly meta: PageMeta;
  /** True when this page is the last one (`meta.page >= meta.pageCount`). */
  readonly isLastPage: boolean;
}

export type WebhookEventName =
  | 'payment.success'
  | 'payment.failed'
  | 'payout.success'
  | 'payout.failed'
  | 'payout.reversed';

/** A webhook as read by the tolerant parser: a hint to confirm, never proof. */
export interface WebhookEvent {
  /** The event's own id when the payload carries one. */
  readonly id: string | null;
  readonly event: WebhookEventName;
  /** The payment reference for payment events, the service reference for payouts. */
  readonly reference: string;
  readonly tenantReference: string | null;
  readonly status: string | null;
  readonly amount: Money | null;
}
