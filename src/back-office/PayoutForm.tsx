/**
 * The payout form: the chosen currency's fields from the provider's requirements, each labelled,
 * validated as typed, its error tied to it (aria-invalid, aria-describedby), failures from the
 * provider put back on their fields, and a live region that says what happened. Keyboard only
 * works throughout: native controls, a real submit button, focus moved to the first field to fix.
 */
import { h } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { PayoutFieldDescriptor, PayoutFieldName, PayoutView } from '../protocol/back-office';
import { isKnownCurrency, minorDigits } from '../protocol/money';
import { formatMoney as formatAmount } from '../widget/ui/format';
import type { BackOfficeApi } from './back-office-api';
import {
  AMOUNT_FIELD,
  createPayoutFormModel,
  NARRATION_FIELD,
  type PayoutFormModel,
} from './payout-form-model';

export interface PayoutFormProps {
  readonly api: Pick<BackOfficeApi, 'requirements' | 'sendPayout'>;
  /** The currencies offered, first one chosen. Default NGN, GBP, USD. */
  readonly currencies?: readonly string[];
  /** Called when the provider accepted a payout (it is Pending). */
  readonly onSent?: (payout: PayoutView) => void;
  /** Prefix of the element ids, when two forms share a page. Default `payout`. */
  readonly idPrefix?: string;
  /** For tests: a model built with fake ports. */
  readonly model?: PayoutFormModel;
}

/**
 * An amount as the back office shows it: the checkout's own formatter (its narrow symbol for
 * every currency, so ₦, £ and $ sit side by side, never "NGN 10,000.00" beside "£98.00"),
 * in English; a code the runtime cannot format is shown as code and number.
 * @example formatMoney(1_000_000_000, 'NGN') // '₦10,000,000.00'
 */
export function formatMoney(amountMinor: number, currency: string): string {
  try {
    return formatAmount({ amountMinor, currency }, 'en');
  } catch {
    const digits = isKnownCurrency(currency) ? minorDigits(currency) : 2;
    return `${currency} ${(amountMinor / 10 ** digits).toFixed(digits)}`;
  }
}

interface FieldProps {
  readonly id: string;
  readonly name: PayoutFieldName;
  readonly label: string;
  readonly hint: string | null;
  readonly inputMode: 'text' | 'numeric' | 'decimal';
  readonly maxLength: number | null;
  readonly model: PayoutFormModel;
}

function Field({ id, name, label, hint, inputMode, maxLength, model }: FieldProps) {
  const error = model.errors.value[name];
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={error ? 'pd-field pd-field-invalid' : 'pd-field'}>
      <label for={id}>{label}</label>
      {hint && (
        <span class="pd-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <input
        id={id}
        name={name}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        spellcheck={false}
        required
        maxLength={maxLength ?? undefined}
        value={model.values.value[name] ?? ''}
        aria-invalid={error ? 'true' : 'false'}
        aria-describedby={describedBy || undefined}
        onInput={(event) => model.input(name, (event.currentTarget as HTMLInputElement).value)}
        onBlur={() => model.blur(name)}
      />
      {error && (
        <span class="pd-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

function hintOf(field: PayoutFieldDescriptor): string | null {
  if (!field.example) return null;
  const length =
    field.minLength !== null && field.maxLength !== null && field.numeric
      ? field.minLength === field.maxLength
        ? `${field.minLength} digits`
        : `${field.minLength} to ${field.maxLength} digits`
      : null;
  return [length, `e.g. ${field.example}`].filter(Boolean).join(', ');
}

export function PayoutForm({
  api,
  currencies = ['NGN', 'GBP', 'USD'],
  onSent,
  idPrefix = 'payout',
  model: given,
}: PayoutFormProps) {
  const model = useMemo(() => given ?? createPayoutFormModel({ api }, currencies[0]), [given, api]);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    void model.choose(model.currency.value);
  }, [model]);

  const status = model.status.value;
  const currency = model.currency.value;
  const idOf = (name: string) => `${idPrefix}-${name.replace(/\./g, '-')}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    const payout = await model.submit();
    if (payout) {
      onSent?.(payout);
      return;
    }
    // Focus the first field to fix, in the order they are shown.
    const names = [AMOUNT_FIELD, ...model.fields.value.map((field) => field.name), NARRATION_FIELD];
    const first = names.find((name) => model.errors.value[name] !== undefined);
    if (first)
      (form.current?.ownerDocument.getElementById(idOf(first)) as HTMLInputElement | null)?.focus();
  };

  const announcement =
    status.kind === 'sent'
      ? `Payout ${status.payout.reference} of ${
          status.payout.amount
            ? formatMoney(status.payout.amount.amountMinor, status.payout.amount.currency)
            : ''
        } accepted by the provider: ${status.payout.status}.`
      : status.kind === 'sending'
        ? status.attempt > 1
          ? 'No answer yet; trying again with the same reference…'
          : 'Sending the payout…'
        : status.kind === 'loading'
          ? `Loading the ${currency} payout form…`
          : '';
  const digits = minorDigits(currency);

  return (
    <form
      ref={form}
      class="pd-payout-form"
      noValidate
      aria-labelledby={`${idPrefix}-title`}
      aria-busy={status.kind === 'loading' || status.kind === 'sending' ? 'true' : 'false'}
      onSubmit={submit}
    >
      <h2 id={`${idPrefix}-title`}>Send a payout</h2>
      <div class="pd-field">
        <label for={idOf('currency')}>Currency</label>
        <select
          id={idOf('currency')}
          value={currency}
          disabled={status.kind === 'sending'}
          onChange={(event) => void model.choose((event.currentTarget as HTMLSelectElement).value)}
        >
          {currencies.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </div>
      {status.kind === 'unavailable' && (
        <p class="pd-form-error" role="alert">
          {status.message}
        </p>
      )}
      {model.requirement.value && (
        <div class="pd-fields">
          <Field
            id={idOf(AMOUNT_FIELD)}
            name={AMOUNT_FIELD}
            label={`Amount (${currency})`}
            hint={
              digits === 0
                ? 'In whole units, e.g. 1500'
                : `In ${currency}, e.g. 1500.${'0'.repeat(digits)}`
            }
            inputMode="decimal"
            maxLength={20}
            model={model}
          />
          {model.fields.value.map((field) => (
            <Field
              key={field.name}
              id={idOf(field.name)}
              name={field.name}
              label={field.label}
              hint={hintOf(field)}
              inputMode={field.numeric ? 'numeric' : 'text'}
              maxLength={field.maxLength}
              model={model}
            />
          ))}
          <Field
            id={idOf(NARRATION_FIELD)}
            name={NARRATION_FIELD}
            label="Narration"
            hint="What the payout is for; the beneficiary sees it"
            inputMode="text"
            maxLength={140}
            model={model}
          />
        </div>
      )}
      <div class="pd-form-error" role="alert">
        {model.formError.value}
      </div>
      <button
        type="submit" // Not disabled while sending: a disabled button drops the keyboard's focus; a second press
        // is ignored by the model instead.
        disabled={!model.requirement.value}
        aria-disabled={status.kind === 'sending' ? 'true' : 'false'}
      >
        {status.kind === 'sending' ? 'Sending…' : 'Send payout'}
      </button>
      <p class="pd-live" role="status" aria-live="polite">
        {announcement}
      </p>
    </form>
  );
}
