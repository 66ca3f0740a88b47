/**
 * The card entry form. It is built inside a factory that receives the host's Preact: this module
 * is a chunk loaded with import() from the script-tag bundle, and a Preact of its own would be a
 * second copy that does not share state with the renderer that mounts it. So only types come from
 * 'preact' here; `h` is imported as a type so TypeScript finds its JSX namespace, while the JSX
 * calls the `h` the factory destructures from the host.
 */
import type {
  ComponentType,
  h,
  Component as PreactComponent,
  Fragment as PreactFragment,
  TargetedEvent,
} from 'preact';
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

/** The parts of Preact the card fields need, taken from the page that loaded the chunk. */
export interface HostPreact {
  readonly h: typeof h;
  readonly Component: typeof PreactComponent;
  readonly Fragment: typeof PreactFragment;
}

export interface CardFieldsProps {
  /** The card texts, e.g. `cardMessagesEn` with the merchant's overrides on top. */
  readonly messages: CardMessages;
  /** The amount as the pay button shows it, already formatted: '₦25,000.50'. */
  readonly amountText: string;
  /** The clock that decides whether an expiry is past. */
  readonly now: () => Date;
  /** Called once per valid submit with the card; the fields keep nothing anywhere else. */
  readonly onSubmit: (card: CardDetails) => void;
  /** While the payment is under way the pay button is disabled and submits do nothing. */
  readonly busy?: boolean;
}

interface CardFieldsState {
  readonly values: CardFieldValues;
  /** Fields whose errors are shown: left once with something in them, or all after a submit. */
  readonly checked: Partial<Record<CardField, true>>;
}

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

/**
 * Makes the card fields component with the host's Preact.
 * @example
 * const CardFields = createCardFields({ h, Component, Fragment });
 * render(h(CardFields, { messages: cardMessagesEn, amountText: '₦25,000.50', now: () => new Date(), onSubmit }), root);
 */
export function createCardFields(preact: HostPreact): ComponentType<CardFieldsProps> {
  // biome-ignore lint/correctness/noUnusedVariables: the JSX below compiles to calls of this h.
  const { h, Component } = preact;
  // Ids tie labels and errors to their inputs: each form gets its own, even when two factories
  // (two checkouts on one page) each count from 1.
  const prefix = `paydrop-card-${Math.random().toString(36).slice(2, 8)}`;
  let forms = 0;

  return class CardFields extends Component<CardFieldsProps, CardFieldsState> {
    override state: CardFieldsState = { values: EMPTY, checked: {} };
    private readonly id = `${prefix}-${++forms}`;
    /** What each input shows, kept in step with it between renders. */
    private current: Record<CardField, string> = { ...EMPTY };

    /**
     * Reads an input, writes it back formatted (keeping the caret among the same digits), and keeps
     * the value. The inputs are not controlled by Preact: a render never writes a value into them,
     * so a browser's fill of several fields is never overwritten by an older state before their
     * events arrive.
     */
    private take(input: HTMLInputElement, field: CardField): string {
      const text = input.value;
      const value = formatField(field, text, this.current[field]);
      if (value !== text) {
        const caret = input.selectionStart ?? text.length;
        input.value = value;
        const root = input.getRootNode() as Document | ShadowRoot;
        if (caret < text.length && root.activeElement === input) {
          const position = afterDigits(value, text.slice(0, caret).replace(/\D/g, '').length);
          input.setSelectionRange(position, position);
        }
      }
      this.current[field] = value;
      return value;
    }

    /**
     * Typing, pasting and autofill alike: browsers fill several fields at once and fire input or
     * change on each, so the value is always read from the input itself.
     */
    private edit = (event: TargetedEvent<HTMLInputElement>) => {
      const field = fieldOf(event.currentTarget);
      if (!field) return;
      this.take(event.currentTarget, field);
      this.setState({ values: { ...this.current } });
    };

    /** Leaving a field with something in it shows its error, if it has one. */
    private leave = (event: TargetedEvent<HTMLInputElement>) => {
      const field = fieldOf(event.currentTarget);
      if (!field) return;
      // A fill that fired no event still counts.
      const value = this.take(event.currentTarget, field);
      this.setState((state) => ({
        values: { ...this.current },
        checked: value.trim() === '' ? state.checked : { ...state.checked, [field]: true },
      }));
    };

    private submit = (event: TargetedEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (this.props.busy) return;
      const form = event.currentTarget;
      const input = (field: CardField) =>
        form.elements.namedItem(INPUT_NAMES[field]) as HTMLInputElement | null;
      // The inputs are the truth: a fill that fired no event still counts.
      for (const field of FIELDS) {
        const element = input(field);
        if (element) this.take(element, field);
      }
      const values = { ...this.current };
      this.setState({ values, checked: { number: true, expiry: true, cvc: true, name: true } });
      const result = validateCard(values, this.props.now());
      if (result.valid) {
        this.props.onSubmit(result.card);
        return;
      }
      const firstInvalid = FIELDS.find((field) => result.errors[field]);
      if (firstInvalid) input(firstInvalid)?.focus();
    };

    private errorText(key: CardErrorKey): string {
      const { messages } = this.props;
      if (key !== 'cvcInvalid') return messages[key];
      const length = String(cvcLength(cardBrand(this.state.values.number)));
      return messages.cvcInvalid.replace('{length}', () => length);
    }

    private renderField(
      field: CardField,
      label: string,
      error: CardErrorKey | undefined,
      input: FieldAttributes,
      note?: string,
    ) {
      const id = `${this.id}-${field}`;
      const errorId = `${id}-error`;
      const noteId = `${id}-note`;
      const describedBy = [note ? noteId : '', error ? errorId : ''].filter(Boolean).join(' ');
      return (
        <div class="field">
          <label for={id}>{label}</label>
          <div class="field-input">
            <input
              id={id}
              type="text"
              name={INPUT_NAMES[field]}
              required
              spellcheck={false}
              autocomplete={input.autocomplete}
              inputmode={input.inputmode}
              maxlength={input.maxlength}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={describedBy || undefined}
              onInput={this.edit}
              onChange={this.edit}
              onBlur={this.leave}
            />
            {note ? (
              <span class="card-brand" id={noteId}>
                {note}
              </span>
            ) : null}
          </div>
          {error ? (
            <p class="field-error" id={errorId}>
              {this.errorText(error)}
            </p>
          ) : null}
        </div>
      );
    }

    override render() {
      const { messages, amountText, now, busy } = this.props;
      const { values, checked } = this.state;
      const validation = validateCard(values, now());
      const errors = validation.valid ? {} : validation.errors;
      const shown = (field: CardField) => (checked[field] ? errors[field] : undefined);
      const brand = cardBrand(values.number);
      const brandNames = {
        visa: messages.brandVisa,
        mastercard: messages.brandMastercard,
        amex: messages.brandAmex,
        verve: messages.brandVerve,
        discover: messages.brandDiscover,
      };
      return (
        <form class="card-fields" novalidate onSubmit={this.submit}>
          {this.renderField(
            'number',
            messages.numberLabel,
            shown('number'),
            { inputmode: 'numeric', autocomplete: 'cc-number' },
            brand ? brandNames[brand] : undefined,
          )}
          <div class="field-pair">
            {this.renderField('expiry', messages.expiryLabel, shown('expiry'), {
              inputmode: 'numeric',
              autocomplete: 'cc-exp',
            })}
            {this.renderField('cvc', messages.cvcLabel, shown('cvc'), {
              inputmode: 'numeric',
              autocomplete: 'cc-csc',
            })}
          </div>
          {this.renderField('name', messages.nameLabel, shown('name'), {
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
  };
}
