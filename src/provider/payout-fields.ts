/**
 * The payout form's fields, as descriptors a form can render, and the provider's validation
 * failures put back on those fields. Endpoint 7 answers with wire names and prose type labels
 * (`"string (BankCode, 3 to 6 digits)"`); endpoint 8 refuses with one sentence per rule, also in
 * wire names. Both are translated here, once, into the client's own field names (issue 14), so a
 * form never parses provider text.
 */
import type { PayoutRequirement } from '../protocol';
import type {
  PayoutFieldDescriptor,
  PayoutFieldFailure,
  PayoutFieldName,
  PayoutFormRequirement,
} from '../protocol/back-office';

export type { PayoutFieldDescriptor, PayoutFieldFailure, PayoutFieldName, PayoutFormRequirement };

const WIRE_TO_FIELD: Readonly<Record<string, PayoutFieldName>> = {
  tenantReference: 'tenantReference',
  amount: 'amount',
  currencyCode: 'amount',
  narration: 'narration',
  paymentMethodType: 'paymentMethodType',
  paymentMethodValue: 'paymentMethodValue',
  beneficiaryAccountName: 'beneficiary.accountName',
  beneficiaryAccountNumber: 'beneficiary.accountNumber',
  beneficiaryFirstName: 'beneficiary.firstName',
  beneficiaryLastName: 'beneficiary.lastName',
  beneficiaryAddress: 'beneficiary.address',
  beneficiaryCity: 'beneficiary.city',
  beneficiaryState: 'beneficiary.state',
  beneficiaryZIP: 'beneficiary.zip',
  beneficiaryCountryIso: 'beneficiary.countryIso',
};

/** Routing values the provider names, with what a person recognises them by. */
const ROUTING: Readonly<
  Record<string, { label: string; pattern: string; min: number; max: number; example: string }>
> = {
  BankCode: { label: 'Bank code', pattern: '\\d{3,6}', min: 3, max: 6, example: '058' },
  SortCode: {
    label: 'Sort code',
    pattern: '\\d{2}-?\\d{2}-?\\d{2}',
    min: 6,
    max: 8,
    example: '40-47-84',
  },
  RoutingNumber: {
    label: 'Routing number',
    pattern: '\\d{9}',
    min: 9,
    max: 9,
    example: '021000021',
  },
};

/** Account numbers by currency: NUBAN (10), UK (8), US (6 to 17 digits). */
const ACCOUNT_NUMBERS: Readonly<
  Record<string, { pattern: string; min: number; max: number; example: string }>
> = {
  NGN: { pattern: '\\d{10}', min: 10, max: 10, example: '0123456789' },
  GBP: { pattern: '\\d{8}', min: 8, max: 8, example: '31926819' },
  USD: { pattern: '\\d{6,17}', min: 6, max: 17, example: '000123456789' },
};

const LABELS: Readonly<Partial<Record<PayoutFieldName, string>>> = {
  amount: 'Amount',
  narration: 'Narration',
  tenantReference: 'Reference',
  paymentMethodType: 'Routing type',
  'beneficiary.accountName': 'Account name',
  'beneficiary.accountNumber': 'Account number',
  'beneficiary.firstName': 'First name',
  'beneficiary.lastName': 'Last name',
  'beneficiary.address': 'Address',
  'beneficiary.city': 'City',
  'beneficiary.state': 'State',
  'beneficiary.zip': 'ZIP or postcode',
  'beneficiary.countryIso': 'Country code',
};

/** Reads "N digits" or "N to M digits" out of a type label the provider wrote as prose. */
function digitsFromLabel(label: string): { min: number; max: number } | null {
  const range = /(\d+)\s*(?:to|-|–)\s*(\d+)\s*digits/i.exec(label);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  const exact = /(\d+)\s*digits/i.exec(label);
  return exact ? { min: Number(exact[1]), max: Number(exact[1]) } : null;
}

function routingField(type: string, label: string): PayoutFieldDescriptor {
  const known = ROUTING[type];
  const digits = digitsFromLabel(label);
  const min = known?.min ?? digits?.min ?? null;
  const max = known?.max ?? digits?.max ?? null;
  const pattern =
    known?.pattern ??
    (digits ? `\\d{${digits.min}${digits.max === digits.min ? '' : `,${digits.max}`}}` : null);
  return {
    name: 'paymentMethodValue',
    wireName: 'paymentMethodValue',
    // "BankCode" reads as "Bank code" when the provider names a routing field we do not know.
    label:
      known?.label ??
      type.replace(/(?<=[a-z])([A-Z])/g, ' $1').replace(/ \w/g, (s) => s.toLowerCase()),
    pattern,
    minLength: min,
    maxLength: max,
    example: known?.example ?? null,
    numeric: pattern !== null && /^[\\d{},0-9-?]+$/.test(pattern),
    required: true,
  };
}

function beneficiaryField(wireName: string, currency: string): PayoutFieldDescriptor | null {
  const name = WIRE_TO_FIELD[wireName];
  if (name === undefined || !name.startsWith('beneficiary.')) return null;
  if (name === 'beneficiary.accountNumber') {
    const account = ACCOUNT_NUMBERS[currency];
    return {
      name,
      wireName,
      label: 'Account number',
      pattern: account?.pattern ?? '\\d{6,34}',
      minLength: account?.min ?? 6,
      maxLength: account?.max ?? 34,
      example: account?.example ?? null,
      numeric: true,
      required: true,
    };
  }
  return {
    name,
    wireName,
    label: LABELS[name] ?? wireName,
    pattern: null,
    minLength: 1,
    maxLength: name === 'beneficiary.accountName' ? 100 : 140,
    example: name === 'beneficiary.accountName' ? 'Ada Obi' : null,
    numeric: false,
    required: true,
  };
}

/**
 * Endpoint 7's answer as form fields: account name, account number, then the routing value.
 * @example toFormRequirement(requirement).fields.map((field) => field.label) // ['Account name', 'Account number', 'Bank code']
 */
export function toFormRequirement(requirement: PayoutRequirement): PayoutFormRequirement {
  const fields: PayoutFieldDescriptor[] = [];
  let routingLabel = '';
  for (const [wireName, label] of Object.entries(requirement.fields)) {
    if (wireName === 'paymentMethodValue') {
      routingLabel = label;
      continue;
    }
    const field = beneficiaryField(wireName, requirement.currency);
    if (field) fields.push(field);
  }
  const order: readonly PayoutFieldName[] = [
    'beneficiary.accountName',
    'beneficiary.accountNumber',
  ];
  fields.sort((a, b) => rank(order, a.name) - rank(order, b.name));
  fields.push(routingField(requirement.name, routingLabel));
  return {
    currency: requirement.currency,
    paymentMethodType: requirement.name,
    paymentDestination: requirement.paymentDestination,
    requireFileUpload: requirement.requireFileUpload,
    fields,
  };
}

function rank(order: readonly string[], name: string): number {
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
}

/**
 * The provider's failure sentences ("beneficiaryAccountNumber must be 6 to 34 digits.") put on
 * the client's field names ({ field: 'beneficiary.accountNumber', message: 'Account number must
 * be 6 to 34 digits.' }). A sentence that names no field stays, with `field: null`.
 */
export function toFieldFailures(failures: readonly string[]): PayoutFieldFailure[] {
  return failures.map((text) => {
    const match = /^\s*([A-Za-z]+)\b\s*(.*)$/s.exec(text);
    const wireName = match?.[1] ?? '';
    const field = Object.hasOwn(WIRE_TO_FIELD, wireName) ? (WIRE_TO_FIELD[wireName] ?? null) : null;
    if (!field || !match) return { field: null, message: text };
    const label = wireName === 'currencyCode' ? 'Currency' : (LABELS[field] ?? field);
    return { field, message: `${label} ${match[2]}`.trim() };
  });
}

/** The label a form shows for a field of the client's own names. */
export function payoutFieldLabel(field: PayoutFieldName): string {
  return LABELS[field] ?? (field === 'paymentMethodValue' ? 'Routing value' : field);
}
