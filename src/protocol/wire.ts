/**
 * The provider's wire format exactly as provider-api.md shows it, quirks included
 * (`Successfull`, `Reuseable`, `intermidiaryBankRoutingNumber`, three amount units).
 * Only the sandbox and the parsers in this folder should look at these shapes; everything
 * else uses the clean types in `types.ts`.
 */

/** The response envelope of most endpoints. Not every field is present on every response. */
export interface WireEnvelope<Value> {
  value?: Value | null;
  isSuccess: boolean;
  error?: string | null;
  message?: string | null;
  responseCode?: string | null;
  type?: string | null;
  title?: string | null;
  detail?: string | null;
  instance?: string | null;
  status?: number | null;
  failures?: string[];
  extensions?: { traceId?: string; [key: string]: unknown };
}

export type WireChannel = 'PayByTransfer' | 'PayByAccount' | 'Card';

export interface WireUserInformation {
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  phone?: string;
}

/** Card details as our default sends them (DESIGN.md): never logged, never stored. */
export interface WireCard {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  holderName: string;
}

/** Endpoint 3 request. `amount` is in major units (DESIGN.md default). */
export interface WireInitiationRequest {
  amount: number;
  channel: WireChannel;
  currency: string;
  link?: { alias: string };
  userInformation?: WireUserInformation;
  metaData?: { 'return-url'?: string; redirect?: boolean };
  card?: WireCard;
}

export interface WireTransferInfo {
  note: string;
  bank: string;
  account_number: string;
  account_name: string;
  expiration: string;
  mode: 'banktransfer';
}

export interface WirePaymentItem {
  channel: string;
  message: string;
  amount: number;
  fees: number;
  reference: string;
  paymentReference: string;
  metaData: { 'transfer-info'?: WireTransferInfo; AuthUrl?: string; [key: string]: unknown };
}

export interface WireInitiation {
  paymentStatus: string;
  message: string;
  bankAuthURL: string | null;
  paymentItem: WirePaymentItem;
}

/** Endpoint 1 request. `amountInfo.amount` is in major units. */
export interface WirePaymentLinkRequest {
  name: string;
  description?: string;
  linkType: 0 | 1;
  amountType: 0 | 1;
  currencyCode: string;
  amountInfo?: WireAmountInfo;
  /** Where the link's hosted page sends the customer after paying or cancelling (DESIGN.md). */
  metaData?: { 'return-url': string };
}

export interface WireAmountInfo {
  currencyCode: string;
  amount: number;
}

export interface WirePaymentLink {
  id: string;
  name: string;
  description: string;
  alias: string;
  link: string;
  amountInfo: WireAmountInfo | null;
  linkType: 'OneTime' | 'Reuseable';
  status: string;
  createdDate: string;
  environment: string;
}

/** Endpoint 2 request. */
export interface WireValidateRequest {
  amount: WireAmountInfo;
  channels?: string[];
}

export interface WireChannelOption {
  id: string;
  name: string;
  alias: string;
  description: string | null;
}

export interface WireValidation {
  isValid: boolean;
  channels: WireChannelOption[];
}

/** Endpoint 4 value. */
export interface WireAuthentication {
  status: string;
  IsAuthenticationEnabled: boolean;
  Recommendation: string;
  message: string;
  authenticationhtml: string;
}

/** Endpoint 5 request and value. */
export interface WireFinalizeRequest {
  paymentReference: string;
}

export interface WireFinalization {
  status: string;
  message: string;
}

/** Endpoint 6 value; the success value is spelled `Successfull` on the wire. */
export interface WirePaymentStatus {
  paymentReference: string;
  amount: WireAmountInfo;
  paymentStatus: 'Successfull' | 'PENDING' | 'FAILED';
  /**
   * What arrived in a PayByTransfer account, once something did (major units). Not in
   * provider-api.md, which says nothing of underpayment: the sandbox's default, read if present.
   */
  amountPaid?: WireAmountInfo;
}

/** Endpoint 7 request. */
export interface WirePaymentMethodsRequest {
  BeneficiaryCurrencyCode: string;
  BeneficiaryBankCountryCode: string;
  CurrencyCode: string;
  Amount: string;
}

export interface WirePaymentMethodRequirement {
  name: string;
  currency: string;
  requireFileUpload: boolean;
  paymentDestination: string;
  metaData: Record<string, string>;
}

/** Endpoint 8 request. `amount` is a digit string in minor units. */
export interface WireFundTransferRequest {
  tenantReference: string;
  amount: string;
  currencyCode: string;
  narration: string;
  beneficiaryAccountName: string;
  beneficiaryAccountNumber: string;
  paymentMethodType: string;
  paymentMethodValue: string;
  beneficiaryAddress?: string;
  beneficiaryFirstName?: string;
  beneficiaryLastName?: string;
  beneficiaryCity?: string;
  beneficiaryState?: string;
  beneficiaryZIP?: string;
  beneficiaryCountryIso?: string;
  nameEnquiryRef?: string | null;
  beneficiaryKYCLevel?: string | null;
  beneficiaryBankVerificationNumber?: string | null;
  intermidiaryBankRoutingNumber?: string | null;
}

export interface WireFundTransfer {
  reference: string;
  tenantReference: string;
}

/** Endpoint 9: its own envelope; amounts are integers in subunits. */
export interface WireTransactionList {
  status: boolean;
  data: WireTransactionItem[];
  meta: WirePageMeta;
  message?: string;
}

export interface WireTransactionItem {
  id: string;
  amount: number;
  currency: string;
  status: string;
  [field: string]: unknown;
}

export interface WirePageMeta {
  page: number;
  pageCount: number;
  total: number;
  perPage: number;
  skipped: number;
}

export type WireWebhookEventName =
  | 'payment.success'
  | 'payment.failed'
  | 'payout.success'
  | 'payout.failed'
  | 'payout.reversed';

/**
 * Our default webhook payload (DESIGN.md). Payment amounts are major units like initiation;
 * payout amounts are minor-unit digit strings like the fund transfer.
 */
export interface WireWebhook {
  id: string;
  event: WireWebhookEventName;
  createdAt: string;
  data: {
    reference: string;
    paymentReference?: string;
    tenantReference?: string;
    status: string;
    amount: number | string;
    currency: string;
    [field: string]: unknown;
  };
}
