/**
 * What the sandbox accepts on each endpoint. Shapes come from provider-api.md; rules where it is
 * silent (required fields, limits) come from the test data in docs/sandbox.md. Unknown fields are
 * refused, so an integration that misspells a field learns it here rather than in production.
 */

import * as v from 'valibot';
import { CHANNELS, isKnownCurrency, MoneyError, passesLuhn, toMinor } from '../protocol';
import { MAX_PAYMENT_MAJOR } from './test-data';

type Issue = v.BaseIssue<unknown>;

/** "is required" when absent, "must be …" when present with the wrong type. */
function expected(what: string) {
  return (issue: Issue) => (issue.received === 'undefined' ? 'is required' : `must be ${what}`);
}

const Text = (max: number) =>
  v.pipe(v.string(expected('a string')), v.maxLength(max, `must be at most ${max} characters`));

const RequiredText = (max: number) =>
  v.pipe(
    v.string(expected('a string')),
    v.trim(),
    v.nonEmpty('must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );

const CurrencyCode = v.pipe(
  v.string(expected('a string')),
  v.regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as NGN'),
  v.check(isKnownCurrency, 'is not a currency the sandbox supports'),
);

/** A major-unit amount: greater than 0 and at most 100,000,000. */
const MajorAmount = v.pipe(
  v.number(expected('a number')),
  v.finite('must be a finite number'),
  v.gtValue(0, 'must be greater than 0'),
  v.maxValue(MAX_PAYMENT_MAJOR, `must be at most ${MAX_PAYMENT_MAJOR.toLocaleString('en')}`),
);

/** True for an absolute http: or https: URL; never throws on junk. */
export function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

const Url = v.pipe(
  v.string(expected('a string')),
  v.url('must be an absolute URL'),
  v.check(isHttpUrl, 'must be an http: or https: URL'),
  v.maxLength(2048, 'must be at most 2048 characters'),
);

const Card = v.strictObject({
  number: v.pipe(
    v.string(expected('a string of digits')),
    v.regex(/^\d{12,19}$/, 'must be 12 to 19 digits'),
    v.check(passesLuhn, 'is not a valid card number'),
  ),
  expiryMonth: v.pipe(
    v.number(expected('a number')),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be from 1 to 12'),
    v.maxValue(12, 'must be from 1 to 12'),
  ),
  expiryYear: v.pipe(
    v.number(expected('a number')),
    v.integer('must be a whole number'),
    v.minValue(2000, 'must be a four-digit year'),
    v.maxValue(2099, 'must be a four-digit year'),
  ),
  cvv: v.pipe(v.string(expected('a string')), v.regex(/^\d{3,4}$/, 'must be 3 or 4 digits')),
  holderName: RequiredText(100),
});

/** "A, B or C", as the provider lists what it takes. */
function oneOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

export const InitiationRequest = v.strictObject({
  amount: MajorAmount,
  channel: v.picklist(CHANNELS, (issue: Issue) =>
    issue.received === 'undefined'
      ? 'is required'
      : `must be ${oneOf(CHANNELS)} (got ${issue.received})`,
  ),
  currency: CurrencyCode,
  link: v.optional(v.strictObject({ alias: RequiredText(64) })),
  userInformation: v.optional(
    v.strictObject({
      firstName: v.optional(Text(100)),
      lastName: v.optional(Text(100)),
      emailAddress: v.optional(v.pipe(Text(254), v.email('must be a well-formed email address'))),
      phone: v.optional(
        v.pipe(Text(32), v.regex(/^\+?[\d\s()-]{5,32}$/, 'must be a phone number')),
      ),
    }),
  ),
  metaData: v.optional(
    v.strictObject({
      'return-url': v.optional(Url),
      redirect: v.optional(v.boolean(expected('true or false'))),
    }),
  ),
  card: v.optional(Card),
});

export type InitiationInput = v.InferOutput<typeof InitiationRequest>;

const AmountInfo = v.strictObject({ currencyCode: CurrencyCode, amount: MajorAmount });

export const ValidateRequest = v.strictObject({
  amount: AmountInfo,
  channels: v.optional(
    v.pipe(
      v.array(v.string(expected('a string')), expected('an array of channel names')),
      v.maxLength(10, 'must list at most 10 channels'),
    ),
  ),
});

export const PaymentLinkRequest = v.strictObject({
  name: RequiredText(100),
  description: v.optional(Text(500)),
  linkType: v.picklist([0, 1], (issue: Issue) =>
    issue.received === 'undefined' ? 'is required' : 'must be 0 (one-time) or 1 (reusable)',
  ),
  amountType: v.picklist([0, 1], (issue: Issue) =>
    issue.received === 'undefined' ? 'is required' : 'must be 0 (static) or 1 (dynamic)',
  ),
  currencyCode: CurrencyCode,
  amountInfo: v.optional(AmountInfo),
  // Where the hosted page sends the customer after paying or cancelling (DESIGN.md, "Card entry
  // on the hosted link page"). Given at all, it must hold the URL: an empty metaData is a mistake.
  metaData: v.optional(v.strictObject({ 'return-url': Url })),
});

export const FinalizeRequest = v.strictObject({ paymentReference: RequiredText(64) });

export const PaymentMethodsRequest = v.strictObject({
  BeneficiaryCurrencyCode: CurrencyCode,
  BeneficiaryBankCountryCode: v.pipe(
    v.string(expected('a string')),
    v.regex(/^[A-Z]{2}$/, 'must be a two-letter ISO 3166 country code'),
  ),
  CurrencyCode: CurrencyCode,
  Amount: v.pipe(
    v.string(expected('a string of digits')),
    v.regex(/^\d{1,15}$/, 'must be 1 to 15 digits'),
  ),
});

const OptionalText = v.optional(v.nullable(Text(200)));

/**
 * The fund transfer's types only; its rules (required, non-empty, formats) are checked in the
 * route so that every violated rule lands in `failures` at once, as provider-api.md shows.
 */
export const FundTransferShape = v.strictObject({
  tenantReference: v.optional(v.string('must be a string')),
  amount: v.optional(v.string('must be a string of digits in minor units')),
  currencyCode: v.optional(v.string('must be a string')),
  narration: v.optional(v.string('must be a string')),
  beneficiaryAccountName: v.optional(v.string('must be a string')),
  beneficiaryAccountNumber: v.optional(v.string('must be a string')),
  paymentMethodType: v.optional(v.string('must be a string')),
  paymentMethodValue: v.optional(v.string('must be a string')),
  beneficiaryAddress: OptionalText,
  beneficiaryFirstName: OptionalText,
  beneficiaryLastName: OptionalText,
  beneficiaryCity: OptionalText,
  beneficiaryState: OptionalText,
  beneficiaryZIP: OptionalText,
  beneficiaryCountryIso: OptionalText,
  nameEnquiryRef: OptionalText,
  beneficiaryKYCLevel: OptionalText,
  beneficiaryBankVerificationNumber: OptionalText,
  intermidiaryBankRoutingNumber: OptionalText,
});

export type FundTransferInput = v.InferOutput<typeof FundTransferShape>;

/** Major units → minor units, or the failure text when the currency has fewer decimals. */
export function majorToMinor(
  amount: number,
  currency: string,
  field: string,
): { ok: true; minor: number } | { ok: false; failure: string } {
  try {
    return { ok: true, minor: toMinor(amount, currency) };
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    return { ok: false, failure: `${field} is not valid: ${error.message}` };
  }
}
