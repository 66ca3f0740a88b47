/**
 * The card entry form: a function component whose values and shown errors are signals. In the
 * script tag it travels in the card chunk, whose imports of Preact and signals are the page's own
 * (src/widget/chunk-host.ts).
 */
import { useSignal } from '@preact/signals';
import { h, type TargetedEvent } from 'preact';
import { useRef } from 'preact/hooks';
import {
  type CardDetails,
  type CardErrorKey,
  type CardField,
  type CardFieldValues,
  cardBrand,
  cvcLength,
  formatCardNumber,
  formatExpiry,
  validateCard,
} from './card-input';
import type { CardMessages } from './messages';

export interface CardFieldsProps {
  /** The card texts, e.g. `cardMessagesEn` with the merchant's overrides on top. */
  readonly messages: CardMessages;
  /** The amount as the pay button shows it, already formatted: '₦25,000.50'. */
  readonly amountText: string;
  /** The clock that decides whether an expiry is past. */
  readonly now: () => Date;
  /** Called once per valid submit with the card; the fields keep nothing anywhere else. */
  readonly onSubmit: (card: CardDetails) => void;
  /** Called with the fields as typed just before `onSubmit`, for the checkout to keep. */
  readonly onTyped?: ((typed: CardFieldValues) => void) | undefined;
  /** What was typed at a failed attempt, to start from: every field but the security code. */
  readonly kept?: Readonly<Record<'number' | 'expiry' | 'name', string>> | null | undefined;
  /** While the payment is under way the pay button is disabled and submits do nothing. */
  readonly busy?: boolean;
}

/** Fields whose errors are shown: left once with something in them, or all after a submit. */
type Checked = Partial<Record<CardField, true>>;

const FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'name'];

/** The names browsers' autofill heuristics recognise, besides the autocomplete tokens. */
const INPUT_NAMES: Readonly<Record<CardField, string>> = {
  number: 'cardnumber',
  expiry: 'exp-date',
  cvc: 'cvc',
  name: 'ccname',
};

const EMPTY: CardFieldValues = { number: '', expiry: '', cvc: '', name: '' };

/** The longest security code (American Express); the exact length is checked on validation. */
const LONGEST_CVC = 4;

/** The companion refuses longer names. */
const LONGEST_NAME = 100;

/** What differs between the four inputs, besides their name and value. */
interface FieldAttributes {
  readonly autocomplete: 'cc-number' | 'cc-exp' | 'cc-csc' | 'cc-name';
  readonly inputmode?: 'numeric';
  readonly maxlength?: number;
}

function fieldOf(input: HTMLInputElement): CardField | undefined {
  return FIELDS.find((field) => INPUT_NAMES[field] === input.name);
}

/**
 * The field's text as it should read once formatted. Backspace over the ' / ' of an expiry
 * deletes it rather than having it put straight back.
 */
function formatField(field: CardField, text: string, before: string): string {
  switch (field) {
    case 'number':
      return formatCardNumber(text);
    case 'expiry': {
      const formatted = formatExpiry(text);
      const deleting =
        text.length < before.length && before.startsWith(text) && !text.endsWith(' / ');
      return deleting && formatted.endsWith(' / ') ? formatted.slice(0, -3) : formatted;
    }
    case 'cvc':
      return text.replace(/\D/g, '').slice(0, LONGEST_CVC);
    case 'name':
      return text;
  }
}

/** The position just after the `count`-th digit of `text`. */
function afterDigits(text: string, count: number): number {
  if (count === 0) return 0;
  let seen = 0;
  for (let index = 0; index < text.length; index++) {
    if (/\d/.test(text.charAt(index)) && ++seen === count) return index + 1;
  }
  return text.length;
}

// Ids tie labels and errors to their inputs: each form on the page gets its own.
const prefix = `paydrop-card-${Math.random().toString(36).slice(2, 8)}`;
let forms = 0;

/**
 * The card's number, expiry, security code and name, checked as the customer goes.
 * @example
 * render(h(CardFields, { messages: cardMessagesEn, amountText: '₦25,000.50', now: () => new Date(), onSubmit }), root);
 */
export function CardFields(props: CardFieldsProps) {
  const { messages, amountText, now, onSubmit, busy, kept } = props;
  const id = useRef('');
  if (!id.current) id.current = `${prefix}-${++forms}`;
  const first = useRef<CardFieldValues | null>(null);
  first.current ??= kept ? { ...kept, cvc: '' } : EMPTY;
  const start = first.current;
  const values = useSignal<CardFieldValues>(start);
  const checked = useSignal<Checked>({});
  /** What each input shows, kept in step with it between renders. */
  const current = useRef<Record<CardField, string>>({ ...start });

  /**
   * Reads an input, writes it back formatted (keeping the caret among the same digits), and keeps
   * the value. The inputs are not controlled by Preact: a render never writes a value into them,
   * so a browser's fill of several fields is never overwritten by an older state before their
   * events arrive.
   */
  function take(input: HTMLInputElement, field: CardField): string {
    const text = input.value;
    const value = formatField(field, text, current.current[field]);
    if (value !== text) {
      const caret = input.selectionStart ?? text.length;
      input.value = value;
      const root = input.getRootNode() as Document | ShadowRoot;
      if (caret < text.length && root.activeElement === input) {
        const position = afterDigits(value, text.slice(0, caret).replace(/\D/g, '').length);
        input.setSelectionRange(position, position);
      }
    }
    current.current[field] = value;
    return value;
  }

  /**
   * Typing, pasting and autofill alike: browsers fill several fields at once and fire input or
   * change on each, so the value is always read from the input itself.
   */
  const edit = (event: TargetedEvent<HTMLInputElement>) => {
    const field = fieldOf(event.currentTarget);
    if (!field) return;
    take(event.currentTarget, field);
    values.value = { ...current.current };
  };

  /** Leaving a field with something in it shows its error, if it has one. */
  const leave = (event: TargetedEvent<HTMLInputElement>) => {
    const field = fieldOf(event.currentTarget);
    if (!field) return;
    // A fill that fired no event still counts.
    const value = take(event.currentTarget, field);
    values.value = { ...current.current };
    if (value.trim() !== '') checked.value = { ...checked.peek(), [field]: true };
  };

  const submit = (event: TargetedEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const input = (field: CardField) =>
      form.elements.namedItem(INPUT_NAMES[field]) as HTMLInputElement | null;
    // The inputs are the truth: a fill that fired no event still counts.
    for (const field of FIELDS) {
      const element = input(field);
      if (element) take(element, field);
    }
    const filled = { ...current.current };
    values.value = filled;
    checked.value = { number: true, expiry: true, cvc: true, name: true };
    const result = validateCard(filled, now());
    if (result.valid) {
      props.onTyped?.(filled);
      onSubmit(result.card);
      return;
    }
    const firstInvalid = FIELDS.find((field) => result.errors[field]);
    if (firstInvalid) input(firstInvalid)?.focus();
  };

  function errorText(key: CardErrorKey): string {
    if (key !== 'cvcInvalid') return messages[key];
    const length = String(cvcLength(cardBrand(values.value.number)));
    return messages.cvcInvalid.replace('{length}', () => length);
  }

  function field(
    name: CardField,
    label: string,
    error: CardErrorKey | undefined,
    input: FieldAttributes,
    note?: string,
  ) {
    const fieldId = `${id.current}-${name}`;
    const errorId = `${fieldId}-error`;
    const noteId = `${fieldId}-note`;
    const describedBy = [note ? noteId : '', error ? errorId : ''].filter(Boolean).join(' ');
    return (
      <div class="field">
        <label for={fieldId}>{label}</label>
        <div class="field-input">
          <input
            id={fieldId}
            type="text"
            name={INPUT_NAMES[name]}
            required
            spellcheck={false}
            autocomplete={input.autocomplete}
            inputmode={input.inputmode}
            maxlength={input.maxlength}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={describedBy || undefined}
            // The first value only (a failed attempt's details); renders never write it again.
            defaultValue={start[name]}
            onInput={edit}
            onChange={edit}
            onBlur={leave}
          />
          {note ? (
            <span class="card-brand" id={noteId}>
              {note}
            </span>
          ) : null}
        </div>
        {error ? (
          <p class="field-error" id={errorId}>
            {errorText(error)}
          </p>
        ) : null}
      </div>
    );
  }

  const validation = validateCard(values.value, now());
  const errors = validation.valid ? {} : validation.errors;
  const shown = (name: CardField) => (checked.value[name] ? errors[name] : undefined);
  const brand = cardBrand(values.value.number);
  const brandNames = {
    visa: messages.brandVisa,
    mastercard: messages.brandMastercard,
    amex: messages.brandAmex,
    verve: messages.brandVerve,
    discover: messages.brandDiscover,
  };
  return (
    <form class="card-fields" novalidate onSubmit={submit}>
      {field(
        'number',
        messages.numberLabel,
        shown('number'),
        { inputmode: 'numeric', autocomplete: 'cc-number' },
        brand ? brandNames[brand] : undefined,
      )}
      <div class="field-pair">
        {field('expiry', messages.expiryLabel, shown('expiry'), {
          inputmode: 'numeric',
          autocomplete: 'cc-exp',
        })}
        {field('cvc', messages.cvcLabel, shown('cvc'), {
          inputmode: 'numeric',
          autocomplete: 'cc-csc',
        })}
      </div>
      {field('name', messages.nameLabel, shown('name'), {
        autocomplete: 'cc-name',
        maxlength: LONGEST_NAME,
      })}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy === true}>
          {messages.pay.replace('{amount}', () => amountText)}
        </button>
      </div>
    </form>
  );
}
