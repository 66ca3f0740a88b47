/**
 * The payout form as a model of signals (CONVENTIONS 2, 18): the chosen currency, its fields from
 * the provider's requirements, what was typed, each field's error, and the submission. Ports are
 * injected (the back office's API, the reference maker, the wait between retries), so it runs in
 * tests without a browser.
 *
 * One submission, one tenantReference: made when Send is pressed, reused for every retry after a
 * lost answer (automatic or by pressing Send again), dropped only when the handler gives a
 * verdict. The provider then sends one transfer, however many times the request went out.
 */
import { batch, computed, signal } from '@preact/signals';
import type {
  PayoutFieldDescriptor,
  PayoutFieldName,
  PayoutFormRequirement,
  PayoutView,
} from '../protocol/back-office';
import { MoneyError, minorDigits, toMinor } from '../protocol/money';
import { type BackOfficeApi, BackOfficeError } from './back-office-api';

/** The form's own fields, before the beneficiary fields of the requirements. */
export const AMOUNT_FIELD: PayoutFieldName = 'amount';
export const NARRATION_FIELD: PayoutFieldName = 'narration';

export type FormStatus =
  | { readonly kind: 'loading' }
  | { readonly kind: 'unavailable'; readonly message: string }
  | { readonly kind: 'ready' }
  | { readonly kind: 'sending'; readonly attempt: number }
  | { readonly kind: 'sent'; readonly payout: PayoutView }
  | { readonly kind: 'refused'; readonly message: string };

export interface PayoutFormPorts {
  readonly api: Pick<BackOfficeApi, 'requirements' | 'sendPayout'>;
  /** A fresh idempotency key. Default: `payout-` and a random UUID. */
  readonly newReference?: () => string;
  /** Waits between automatic retries after a lost answer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const AUTOMATIC_ATTEMPTS = 3;

function matches(pattern: string | null, value: string): boolean {
  return pattern === null || new RegExp(`^(?:${pattern})$`).test(value);
}

/** The rule a field breaks, in words, or null. `final` adds "required" (on blur and submit). */
export function fieldError(
  field: PayoutFieldDescriptor,
  value: string,
  final: boolean,
): string | null {
  const text = value.trim();
  if (text === '')
    return final && field.required ? `Enter the ${field.label.toLowerCase()}.` : null;
  if (field.maxLength !== null && text.length > field.maxLength)
    return `${field.label} must be at most ${field.maxLength} characters.`;
  if (!matches(field.pattern, text)) {
    const length =
      field.minLength === field.maxLength
        ? `${field.minLength} digits`
        : `${field.minLength} to ${field.maxLength} digits`;
    const example = field.example ? `, like ${field.example}` : '';
    return field.numeric
      ? `${field.label} must be ${length}${example}.`
      : `${field.label} is not in the right form${example}.`;
  }
  return null;
}

export function amountError(currency: string, value: string, final: boolean): string | null {
  const text = value.trim().replace(/,/g, '');
  if (text === '') return final ? 'Enter the amount.' : null;
  const digits = minorDigits(currency);
  const shape = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!shape.test(text)) {
    return digits === 0
      ? `Enter the amount in whole ${currency}, like 1500.`
      : `Enter the amount in ${currency} with at most ${digits} decimals, like 1500.00.`;
  }
  try {
    if (toMinor(text, currency) <= 0) return 'The amount must be more than 0.';
  } catch (error) {
    if (error instanceof MoneyError) return 'That amount is too large.';
    throw error;
  }
  return null;
}

export function createPayoutFormModel(ports: PayoutFormPorts, initialCurrency = 'NGN') {
  const newReference = ports.newReference ?? (() => `payout-${crypto.randomUUID()}`);
  const sleep = ports.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));

  const currency = signal(initialCurrency);
  const requirement = signal<PayoutFormRequirement | null>(null);
  const values = signal<Readonly<Record<string, string>>>({});
  const errors = signal<Readonly<Partial<Record<PayoutFieldName, string>>>>({});
  const formError = signal<string | null>(null);
  const status = signal<FormStatus>({ kind: 'loading' });
  /** The current submission's key, kept until the handler gives a verdict. */
  let submission: string | null = null;
  let loadCount = 0;

  const fields = computed<readonly PayoutFieldDescriptor[]>(() => requirement.value?.fields ?? []);

  function errorOf(name: PayoutFieldName, value: string, final: boolean): string | null {
    if (name === AMOUNT_FIELD) return amountError(currency.value, value, final);
    if (name === NARRATION_FIELD) {
      const text = value.trim();
      if (text === '') return final ? 'Enter a narration: what the payout is for.' : null;
      return text.length > 140 ? 'The narration must be at most 140 characters.' : null;
    }
    const field = fields.value.find((candidate) => candidate.name === name);
    return field ? fieldError(field, value, final) : null;
  }

  function setError(name: PayoutFieldName, message: string | null): void {
    const next = { ...errors.value };
    if (message) next[name] = message;
    else delete next[name];
    errors.value = next;
  }

  async function choose(next: string): Promise<void> {
    const load = ++loadCount;
    batch(() => {
      currency.value = next;
      requirement.value = null;
      errors.value = {};
      formError.value = null;
      status.value = { kind: 'loading' };
    });
    submission = null;
    try {
      const loaded = await ports.api.requirements(next);
      if (load !== loadCount) return;
      batch(() => {
        requirement.value = loaded;
        status.value = { kind: 'ready' };
      });
    } catch (error) {
      if (load !== loadCount) return;
      status.value = {
        kind: 'unavailable',
        message:
          error instanceof BackOfficeError
            ? `The ${next} payout form could not be loaded: ${error.message}`
            : `The ${next} payout form could not be loaded.`,
      };
    }
  }

  /** As typed: the value, and the field's error unless it is only "required". */
  function input(name: PayoutFieldName, value: string): void {
    values.value = { ...values.value, [name]: value };
    const wasShown = errors.value[name] !== undefined;
    const message = errorOf(name, value, wasShown);
    setError(name, message);
    if (status.value.kind === 'sent' || status.value.kind === 'refused')
      status.value = { kind: 'ready' };
  }

  /** Leaving a field: now an empty required one says so. */
  function blur(name: PayoutFieldName): void {
    setError(name, errorOf(name, values.value[name] ?? '', true));
  }

  const allNames = computed<PayoutFieldName[]>(() => [
    AMOUNT_FIELD,
    ...fields.value.map((field) => field.name),
    NARRATION_FIELD,
  ]);

  /** Checks every field; true when the form may be sent. */
  function validate(): boolean {
    const next: Partial<Record<PayoutFieldName, string>> = {};
    for (const name of allNames.value) {
      const message = errorOf(name, values.value[name] ?? '', true);
      if (message) next[name] = message;
    }
    errors.value = next;
    return Object.keys(next).length === 0;
  }

  function request(tenantReference: string) {
    const value = (name: string) => (values.value[name] ?? '').trim();
    const loaded = requirement.value as PayoutFormRequirement;
    return {
      tenantReference,
      amount: {
        amountMinor: toMinor(value(AMOUNT_FIELD).replace(/,/g, ''), currency.value),
        currency: currency.value,
      },
      narration: value(NARRATION_FIELD),
      paymentMethodType: loaded.paymentMethodType,
      paymentMethodValue: value('paymentMethodValue'),
      beneficiary: {
        accountName: value('beneficiary.accountName'),
        accountNumber: value('beneficiary.accountNumber'),
      },
    };
  }

  /** Sends the payout; resolves with the payout when accepted, else null. */
  async function submit(): Promise<PayoutView | null> {
    if (status.value.kind === 'sending' || !requirement.value) return null;
    formError.value = null;
    if (!validate()) {
      formError.value = 'Some fields need attention. Nothing was sent.';
      return null;
    }
    submission ??= newReference();
    const body = request(submission);
    for (let attempt = 1; ; attempt++) {
      status.value = { kind: 'sending', attempt };
      try {
        const result = await ports.api.sendPayout(body);
        submission = null;
        if (result.status === 'accepted') {
          batch(() => {
            status.value = { kind: 'sent', payout: result.payout };
            values.value = {};
            errors.value = {};
          });
          return result.payout;
        }
        if (result.status === 'invalid') {
          const next: Partial<Record<PayoutFieldName, string>> = {};
          const loose: string[] = [];
          for (const failure of result.failures) {
            const name =
              failure.field && allNames.value.includes(failure.field) ? failure.field : null;
            if (name)
              next[name] = next[name] ? `${next[name]} ${failure.message}` : failure.message;
            else loose.push(failure.message);
          }
          batch(() => {
            errors.value = next;
            formError.value = ['The provider refused the payout. Nothing was sent.', ...loose].join(
              ' ',
            );
            status.value = { kind: 'ready' };
          });
          return null;
        }
        if (result.status === 'insufficient_balance') {
          const message = `Your ${currency.value} balance is not enough for this payout. Nothing was sent.`;
          batch(() => {
            errors.value = { [AMOUNT_FIELD]: message };
            formError.value = message;
            status.value = { kind: 'refused', message };
          });
          return null;
        }
        const message = `The provider refused this payout: ${result.message}`;
        batch(() => {
          formError.value = message;
          status.value = { kind: 'refused', message };
        });
        return null;
      } catch (error) {
        const lost =
          !(error instanceof BackOfficeError) || error.status === 0 || error.status >= 500;
        if (!lost) {
          submission = null;
          batch(() => {
            formError.value = `The payout was not sent: ${error.message}`;
            status.value = { kind: 'ready' };
          });
          return null;
        }
        if (attempt >= AUTOMATIC_ATTEMPTS) {
          // The submission's key stays: pressing Send again cannot make a second transfer.
          batch(() => {
            formError.value =
              'We could not confirm the payout. Press Send again: it will not be sent twice.';
            status.value = { kind: 'ready' };
          });
          return null;
        }
        await sleep(500 * attempt);
      }
    }
  }

  return {
    currency,
    requirement,
    fields,
    values,
    errors,
    formError,
    status,
    choose,
    input,
    blur,
    submit,
    /** The key of the submission in progress, if any (tests and logs). */
    pendingReference: () => submission,
  };
}

export type PayoutFormModel = ReturnType<typeof createPayoutFormModel>;
