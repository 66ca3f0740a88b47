/**
 * What the back office's staff page sends, checked: a payout, a payment link, a whole number in
 * the query. A bad shape is a 400 naming every problem at once (`issues`).
 */
import { isKnownCurrency, type Money } from '../../protocol';
import type { PaymentLinkRequestWire } from '../../protocol/back-office';
import type { FundTransferInput } from '../../provider/client';
import { CheckoutError } from '../http';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, name: string, issues: string[], max = 140): string {
  if (typeof value !== 'string') {
    issues.push(`${name} must be a string.`);
    return '';
  }
  if (value.length > max) issues.push(`${name} must be at most ${max} characters.`);
  return value;
}

function money(value: unknown, name: string, issues: string[]): Money {
  const amount = isRecord(value) ? value : {};
  const amountMinor = amount.amountMinor;
  const currency = amount.currency;
  if (typeof currency !== 'string' || !isKnownCurrency(currency))
    issues.push(`${name}.currency must be a supported currency code.`);
  if (typeof amountMinor !== 'number' || !Number.isSafeInteger(amountMinor) || amountMinor <= 0)
    issues.push(`${name}.amountMinor must be a whole number of minor units above 0.`);
  return { amountMinor: Number(amountMinor), currency: String(currency) };
}

/** `POST /payouts` as the client's FundTransferInput; bad shapes are the handler's 400. */
export function payoutInput(body: unknown): FundTransferInput {
  const issues: string[] = [];
  const input = isRecord(body) ? body : {};
  const beneficiary = isRecord(input.beneficiary) ? input.beneficiary : {};
  if (!isRecord(input.beneficiary))
    issues.push('beneficiary must be { accountName, accountNumber }.');
  const tenantReference = text(input.tenantReference, 'tenantReference', issues, 100);
  if (tenantReference !== '' && !/^[\w.:-]{8,100}$/.test(tenantReference))
    issues.push(
      'tenantReference must be 8 to 100 letters, digits, dots, colons, dashes or underscores.',
    );
  const result: FundTransferInput = {
    tenantReference,
    amount: money(input.amount, 'amount', issues),
    narration: text(input.narration, 'narration', issues),
    paymentMethodType: text(input.paymentMethodType, 'paymentMethodType', issues, 40),
    paymentMethodValue: text(input.paymentMethodValue, 'paymentMethodValue', issues, 40),
    beneficiary: {
      accountName: text(beneficiary.accountName, 'beneficiary.accountName', issues, 100),
      accountNumber: text(beneficiary.accountNumber, 'beneficiary.accountNumber', issues, 40),
    },
  };
  if (issues.length > 0)
    throw new CheckoutError('invalid_request', 'The payout is not well formed.', { issues });
  return result;
}

export function linkInput(body: unknown): PaymentLinkRequestWire {
  const issues: string[] = [];
  const input = isRecord(body) ? body : {};
  const name = text(input.name, 'name', issues, 100);
  if (name.trim() === '') issues.push('name must not be empty.');
  const description =
    input.description === undefined
      ? undefined
      : text(input.description, 'description', issues, 200);
  if (input.linkType !== 'OneTime' && input.linkType !== 'Reusable')
    issues.push("linkType must be 'OneTime' or 'Reusable'.");
  const currency = typeof input.currency === 'string' ? input.currency : '';
  if (!isKnownCurrency(currency)) issues.push('currency must be a supported currency code.');
  const amountMinor = input.amountMinor;
  if (
    amountMinor !== undefined &&
    (typeof amountMinor !== 'number' || !Number.isSafeInteger(amountMinor) || amountMinor <= 0)
  )
    issues.push('amountMinor must be a whole number of minor units above 0 when given.');
  if (issues.length > 0)
    throw new CheckoutError('invalid_request', 'The payment link is not well formed.', { issues });
  return {
    name,
    ...(description ? { description } : {}),
    linkType: input.linkType as 'OneTime' | 'Reusable',
    currency,
    ...(typeof amountMinor === 'number' ? { amountMinor } : {}),
  };
}

export function wholeNumber(
  value: string | null,
  fallback: number,
  min: number,
  max: number,
  name: string,
): number {
  if (value === null || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new CheckoutError(
      'invalid_request',
      `${name} must be a whole number from ${min} to ${max}.`,
    );
  }
  return number;
}
