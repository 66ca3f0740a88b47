/**
 * What the back office's browser page and the payouts handler say to each other (CONVENTIONS 16:
 * one contract, written once): the paths under the handler's base path, the views, the payout
 * form's field descriptors and the SSE event. Types and constants only; no bytes of logic.
 */
import type { Money } from './money';
import type { PayoutStatus } from './types';

/** Paths under the payouts handler's `basePath` (default `/api/back-office`). */
export const BACK_OFFICE_PATHS = {
  requirements: '/requirements',
  payouts: '/payouts',
  transactions: '/transactions',
  links: '/links',
  events: '/events',
  webhooks: '/webhooks',
} as const;

/**
 * The SSE event name of a payout's move on `/events` (the companion's one stream writer names
 * every event `status`); its data is a PayoutEventWire.
 */
export const PAYOUT_EVENT = 'status';

/** One move of one payout, as `/events` pushes it. */
export interface PayoutEventWire {
  readonly type: 'payout';
  readonly payout: PayoutView;
  readonly previousStatus: PayoutStatus | null;
}

/** A field of the provider client's `FundTransferInput`, by its path: what a form names its inputs. */
export type PayoutFieldName =
  | 'tenantReference'
  | 'amount'
  | 'narration'
  | 'paymentMethodType'
  | 'paymentMethodValue'
  | 'beneficiary.accountName'
  | 'beneficiary.accountNumber'
  | 'beneficiary.firstName'
  | 'beneficiary.lastName'
  | 'beneficiary.address'
  | 'beneficiary.city'
  | 'beneficiary.state'
  | 'beneficiary.zip'
  | 'beneficiary.countryIso';

/** One input of the payout form. */
export interface PayoutFieldDescriptor {
  /** The client's field name, e.g. `beneficiary.accountNumber`, `paymentMethodValue`. */
  readonly name: PayoutFieldName;
  /** What the provider calls it, e.g. `beneficiaryAccountNumber`. */
  readonly wireName: string;
  /** For the label element, e.g. "Sort code". */
  readonly label: string;
  /** A regular expression source the whole value must match (as HTML `pattern`), or null. */
  readonly pattern: string | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  /** A value of the right shape, for a hint. */
  readonly example: string | null;
  /** Digits only: the form may ask for a numeric keyboard. */
  readonly numeric: boolean;
  readonly required: boolean;
}

/** What a payout form needs for one currency, from endpoint 7. */
export interface PayoutFormRequirement {
  readonly currency: string;
  /** The routing field's name as `paymentMethodType` takes it: BankCode, SortCode, RoutingNumber. */
  readonly paymentMethodType: string;
  readonly paymentDestination: string;
  readonly requireFileUpload: boolean;
  /** The beneficiary fields in the order a form shows them, routing value last. */
  readonly fields: readonly PayoutFieldDescriptor[];
}

/** A rule the provider (or the form) says a field breaks. `field` is null for the whole form. */
export interface PayoutFieldFailure {
  readonly field: PayoutFieldName | null;
  readonly message: string;
}

/** One payout as the list, the lookup and the live stream show it. */
export interface PayoutView {
  readonly reference: string;
  readonly tenantReference: string | null;
  readonly status: PayoutStatus;
  /** Null only in a pushed move the provider's list could not be read for. */
  readonly amount: Money | null;
  /** Why it failed or was reversed, when the provider said (from its webhook). */
  readonly reason: string | null;
  readonly createdAt: string | null;
  /** When the provider reported the latest move, when known. */
  readonly updatedAt: string | null;
}

/** The body of `POST /payouts`: amounts in minor units, the tenantReference made once per form submission. */
export interface PayoutRequestWire {
  readonly tenantReference: string;
  readonly amount: Money;
  readonly narration: string;
  readonly paymentMethodType: string;
  readonly paymentMethodValue: string;
  readonly beneficiary: { readonly accountName: string; readonly accountNumber: string };
}

/** The answer to `POST /payouts`. */
export type PayoutResultWire =
  | { readonly status: 'accepted'; readonly payout: PayoutView }
  | { readonly status: 'invalid'; readonly failures: readonly PayoutFieldFailure[] }
  | { readonly status: 'insufficient_balance'; readonly message: string }
  | { readonly status: 'conflict'; readonly message: string };

/** One entry of the transaction list, payments and payouts alike. */
export interface TransactionView {
  readonly id: string;
  readonly kind: 'payment' | 'payout' | 'other';
  readonly amount: Money;
  /** Payouts: Pending, Completed, Failed, Reversed; payments: PENDING, SUCCESSFUL, FAILED. */
  readonly status: string;
  readonly createdAt: string | null;
}

export interface TransactionPageWire {
  readonly items: readonly TransactionView[];
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
  readonly perPage: number;
}

export interface PaymentLinkView {
  readonly alias: string;
  readonly name: string;
  readonly description: string;
  readonly url: string;
  readonly amount: Money | null;
  readonly linkType: 'OneTime' | 'Reusable';
  readonly status: string;
  readonly createdAt: string;
}

/**
 * The answer of `GET /links?limit=&after=`: a page of links, newest first, and the cursor of the
 * next page (`after=`), null on the last.
 */
export interface PaymentLinkPageWire {
  readonly links: readonly PaymentLinkView[];
  readonly next: string | null;
}

/** The body of `POST /links`. */
export interface PaymentLinkRequestWire {
  readonly name: string;
  readonly description?: string;
  readonly linkType: 'OneTime' | 'Reusable';
  readonly currency: string;
  /** Fixed amount in minor units; omitted for a link where the payer chooses. */
  readonly amountMinor?: number;
}
