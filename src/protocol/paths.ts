/**
 * Where each operation lives, relative to `{base_url}` (and `{sandbox_base_url}` for the list).
 * Paths marked "default" are not shown in provider-api.md; they are our DESIGN.md defaults, kept
 * here alone so that one edit follows the provider if it says otherwise.
 */
export const PATHS = {
  /** Endpoint 1. */
  paymentLink: '/api/payment/payment-link',
  /** Endpoint 2. */
  validate: '/api/payment/pay/validate',
  /** Endpoint 3. */
  initiate: '/api/payment/pay/initiate',
  /** Endpoint 4, default path; the reference is appended as a path segment. */
  authenticate: '/api/payment/pay/authenticate/',
  /** Endpoint 5. */
  finalize: '/api/payment/pay/finalize',
  /** Endpoint 6, default path; the reference is appended as a path segment. */
  status: '/api/payment/pay/status/',
  /** Endpoint 7, default method (POST) and path. */
  paymentMethods: '/payout/Disbursement/Payout/PaymentMethods',
  /** Endpoint 8. */
  fundTransfer: '/payout/Disbursement/Payout/FundTransfer',
  /** Endpoint 9, on `{sandbox_base_url}`. */
  transactions: '/v1/api/transactions',
} as const;

/** The names of the nine operations, as used in sandbox fault scripts and logs. */
export type OperationName = keyof typeof PATHS;

export const OPERATION_NAMES = Object.keys(PATHS) as OperationName[];

/** The header that carries the merchant's secret key on every call. */
export const SECRET_KEY_HEADER = 'X-Api';

/** Builds the path of an operation that takes a reference as a path variable. */
export function referencePath(operation: 'authenticate' | 'status', reference: string): string {
  return PATHS[operation] + encodeURIComponent(reference);
}
