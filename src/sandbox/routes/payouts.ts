/**
 * Endpoints 7 and 8: payout requirements and same-currency fund transfers.
 */
import * as v from 'valibot';
import type { WireFundTransfer, WirePaymentMethodRequirement } from '../../protocol';
import {
  failuresOf,
  insufficientBalance,
  readJsonBody,
  success,
  validationFailure,
} from '../responses';
import { type FundTransferInput, FundTransferShape, PaymentMethodsRequest } from '../schemas';
import { InsufficientBalance } from '../state';
import { PAYOUT_REQUIREMENTS } from '../test-data';
import type { RouteContext } from './payments';

type PayoutCurrency = keyof typeof PAYOUT_REQUIREMENTS;

function requirementFor(currency: string) {
  return Object.hasOwn(PAYOUT_REQUIREMENTS, currency)
    ? PAYOUT_REQUIREMENTS[currency as PayoutCurrency]
    : undefined;
}

const WALLET_CURRENCIES = Object.keys(PAYOUT_REQUIREMENTS).join(', ');

/** Endpoint 7: what a payout form must ask for. */
export async function paymentMethods({ request }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(PaymentMethodsRequest, read.body);
  if (!parsed.success) return validationFailure(failuresOf(parsed.issues));
  const input = parsed.output;
  const failures: string[] = [];
  const requirement = requirementFor(input.CurrencyCode);
  if (!requirement) {
    failures.push(
      `CurrencyCode must be a wallet currency: there is no wallet in ${input.CurrencyCode} (${WALLET_CURRENCIES}).`,
    );
  }
  if (input.BeneficiaryCurrencyCode !== input.CurrencyCode) {
    failures.push(
      'BeneficiaryCurrencyCode must equal CurrencyCode: cross-currency transfers use another operation.',
    );
  }
  if (requirement && input.BeneficiaryBankCountryCode !== requirement.country) {
    failures.push(
      `BeneficiaryBankCountryCode must be ${requirement.country} for ${input.CurrencyCode} payouts.`,
    );
  }
  if (failures.length > 0 || !requirement) return validationFailure(failures);
  const value: WirePaymentMethodRequirement[] = [
    {
      name: requirement.name,
      currency: input.CurrencyCode,
      requireFileUpload: false,
      paymentDestination: 'Local',
      metaData: {
        beneficiaryAccountNumber: 'string',
        beneficiaryAccountName: 'string',
        paymentMethodValue: `string (${requirement.name}, ${requirement.hint})`,
      },
    },
  ];
  return success(value, 'Payment methods retrieved.');
}

const REQUIRED = [
  'tenantReference',
  'amount',
  'currencyCode',
  'narration',
  'beneficiaryAccountName',
  'beneficiaryAccountNumber',
  'paymentMethodType',
  'paymentMethodValue',
] as const;

/** Every rule a fund transfer breaks, all at once, as provider-api.md's `failures` shows. */
function fundTransferFailures(input: FundTransferInput): string[] {
  const failures: string[] = [];
  for (const field of REQUIRED) {
    const value = input[field];
    if (value === undefined) failures.push(`${field} is required.`);
    else if (value.trim() === '') failures.push(`${field} must not be empty.`);
  }
  const { amount, currencyCode, paymentMethodType, paymentMethodValue } = input;
  if (amount?.trim()) {
    if (!/^\d+$/.test(amount)) failures.push('amount must be a string of digits in minor units.');
    else if (amount.length > 15) failures.push('amount must be at most 15 digits.');
    else if (Number(amount) <= 0) failures.push('amount must be greater than 0.');
  }
  const requirement = currencyCode ? requirementFor(currencyCode) : undefined;
  if (currencyCode?.trim() && !requirement) {
    failures.push(
      `currencyCode must equal the source wallet currency; there is no ${currencyCode} wallet (${WALLET_CURRENCIES}).`,
    );
  }
  if (requirement && paymentMethodType?.trim() && paymentMethodType !== requirement.name) {
    failures.push(`paymentMethodType must be ${requirement.name} for ${currencyCode}.`);
  }
  if (requirement && paymentMethodValue?.trim() && !requirement.pattern.test(paymentMethodValue)) {
    failures.push(`paymentMethodValue must be a ${requirement.name} of ${requirement.hint}.`);
  }
  const accountNumber = input.beneficiaryAccountNumber;
  if (accountNumber?.trim() && !/^\d{6,34}$/.test(accountNumber)) {
    failures.push('beneficiaryAccountNumber must be 6 to 34 digits.');
  }
  if ((input.tenantReference?.length ?? 0) > 100)
    failures.push('tenantReference must be at most 100 characters.');
  if ((input.narration?.length ?? 0) > 140)
    failures.push('narration must be at most 140 characters.');
  return failures;
}

/** Same payload, same key order: two retries of one transfer compare equal. */
function fingerprint(body: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(body)
      .sort()
      .map((key) => [key, body[key]]),
  );
}

/** Endpoint 8: 202 and Pending, at most once per tenantReference. */
export async function fundTransfer({ world, request }: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(FundTransferShape, read.body);
  if (!parsed.success) {
    // Type errors and unknown fields, plus the rules of the fields that did have the right type.
    const raw = typeof read.body === 'object' && read.body !== null ? read.body : {};
    const typed = Object.fromEntries(
      Object.entries(raw).filter(([, value]) => typeof value === 'string'),
    ) as FundTransferInput;
    const failures = [...failuresOf(parsed.issues), ...fundTransferFailures(typed)];
    return validationFailure(
      [...new Set(failures)].filter((text) => !isRequiredOfMistyped(text, raw)),
    );
  }
  const input = parsed.output;
  const failures = fundTransferFailures(input);
  if (failures.length > 0) return validationFailure(failures);
  try {
    const { record, created } = world.ledger.acceptPayout({
      tenantReference: input.tenantReference as string,
      fingerprint: fingerprint(read.body as Record<string, unknown>),
      amountMinor: Number(input.amount),
      currency: input.currencyCode as string,
      beneficiaryAccountNumber: input.beneficiaryAccountNumber as string,
      beneficiaryAccountName: input.beneficiaryAccountName as string,
      narration: input.narration as string,
    });
    const value: WireFundTransfer = {
      reference: record.reference,
      tenantReference: record.tenantReference,
    };
    return success(
      value,
      created
        ? 'Transfer is being processed.'
        : `A transfer with this tenantReference already exists; it is ${record.status}.`,
      202,
    );
  } catch (error) {
    if (error instanceof InsufficientBalance) return insufficientBalance(error.message);
    throw error;
  }
}

/** A field sent with the wrong type is reported as such, not also as missing. */
function isRequiredOfMistyped(text: string, raw: object): boolean {
  const match = /^(\w+) is required\.$/.exec(text);
  return match !== null && match[1] !== undefined && Object.hasOwn(raw, match[1]);
}
