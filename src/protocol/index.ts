// The provider's wire format: types, paths, parsing, errors and money. Shared by the companion,
// the provider client and the sandbox; it imports nothing of ours.
export { passesLuhn } from './card';
export {
  type FailedRequest,
  InsufficientBalanceError,
  ProviderAuthError,
  ProviderConflictError,
  ProviderError,
  type ProviderErrorOptions,
  ProviderNotFoundError,
  ProviderProtocolError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  ProviderValidationError,
} from './errors';
export { escapeHtml } from './escape-html';
export {
  isKnownCurrency,
  type Money,
  MoneyError,
  minorDigits,
  parseMinorString,
  toMajor,
  toMajorText,
  toMinor,
  toMinorString,
} from './money';
export {
  errorFromAnswer,
  normalizeLinkType,
  normalizePaymentStatus,
  normalizePayoutStatus,
  type ProviderAnswer,
  parseAuthenticationCheck,
  parseChannelValidation,
  parseFinalization,
  parseFundTransfer,
  parseInitiation,
  parsePaymentLink,
  parsePaymentStatus,
  parsePayoutRequirements,
  parseRetryAfter,
  parseTransactionPage,
  parseWebhookEvent,
  readAnswer,
} from './parse';
export {
  OPERATION_NAMES,
  type OperationName,
  PATHS,
  referencePath,
  SECRET_KEY_HEADER,
} from './paths';
export type {
  AuthenticationCheck,
  Channel,
  ChannelOption,
  ChannelValidation,
  Finalization,
  FundTransferAccepted,
  Initiation,
  LinkType,
  PageMeta,
  PaymentLink,
  PaymentStatus,
  PaymentStatusReport,
  PayoutRequirement,
  PayoutStatus,
  TransactionListItem,
  TransactionPage,
  VirtualAccount,
  WebhookEvent,
  WebhookEventName,
} from './types';
export { CHANNELS } from './types';
export { isSafeUrl } from './url';
export type * from './wire';
