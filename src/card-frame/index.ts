/**
 * The card frame's script (dist/paydrop-card-frame.js, served by the companion at
 * {basePath}/assets/card-frame.js): the card form, in a document of an opaque origin that no
 * script of the merchant's page can reach (issue 19). It sends the card to the companion itself
 * and tells the page only the brand, which fields are complete, the last four digits, its height
 * and what became of a submission (src/protocol/card-frame.ts). Plain DOM: the form is four
 * inputs, and a framework would cost most of the 8 KB budget.
 */
import {
  CARD_FRAME_PARAMS,
  CARD_FRAME_TAG,
  CARD_FRAME_THEME_KEYS,
  CARD_PATH,
  type CardFieldState,
  type CardFrameEvent,
  type CardFrameResult,
  type CardFrameTheme,
  checkTheme,
  isCardFrameMessage,
} from '../protocol/card-frame';
import {
  type CardErrorKey,
  type CardField,
  cardBrand,
  cvcLength,
  formatCardNumber,
  formatExpiry,
  validateCard,
} from '../protocol/card-input';
import { brandLogo } from './brand-logo';
import './card-frame.css';
import { cardFrameTexts } from './messages';

const FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'name'];

/** The names browsers' autofill heuristics recognise, besides the autocomplete tokens. */
const INPUT_NAMES: Readonly<Record<CardField, string>> = {
  number: 'cardnumber',
  expiry: 'exp-date',
  cvc: 'cvc',
  name: 'ccname',
};
const AUTOCOMPLETE: Readonly<Record<CardField, string>> = {
  number: 'cc-number',
  expiry: 'cc-exp',
  cvc: 'cc-csc',
  name: 'cc-name',
};

/** The field's text as it should read once formatted; backspace over ' / ' deletes it. */
function formatField(field: CardField, text: string, before: string): string {
  if (field === 'number') return formatCardNumber(text);
  if (field === 'cvc') return text.replace(/\D/g, '').slice(0, 4);
  if (field === 'name') return text;
  const formatted = formatExpiry(text);
  const deleting = text.length < before.length && before.startsWith(text) && !text.endsWith(' / ');
  return deleting && formatted.endsWith(' / ') ? formatted.slice(0, -3) : formatted;
}

/** The position just after the `count`-th digit of `text`. */
function afterDigits(text: string, count: number): number {
  let seen = 0;
  for (let index = 0; index < text.length && count > 0; index++) {
    if (/\d/.test(text.charAt(index)) && ++seen === count) return index + 1;
  }
  return count === 0 ? 0 : text.length;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (value !== undefined) node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function applyTheme(theme: CardFrameTheme): void {
  const style = document.documentElement.style;
  // Through CSSOM only: a value never becomes markup, and the CSP needs no 'unsafe-inline'.
  for (const key of CARD_FRAME_THEME_KEYS) {
    const value = theme[key];
    if (value) style.setProperty(`--theme-${key}`, value);
    else style.removeProperty(`--theme-${key}`);
  }
}

function start(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get(CARD_FRAME_PARAMS.token) ?? '';
  const secret = params.get(CARD_FRAME_PARAMS.secret) ?? '';
  const pageOrigin = params.get(CARD_FRAME_PARAMS.origin) ?? '';
  let origin = '';
  try {
    origin = new URL(pageOrigin).origin;
  } catch {}
  // Opened on its own (window.open, a new tab) or without what the widget passes: no form.
  if (window.parent === window || !token || secret.length < 16 || origin !== pageOrigin) {
    document.body.append(element('p', {}, 'This form works only inside the checkout.'));
    return;
  }
  const texts = cardFrameTexts(params.get(CARD_FRAME_PARAMS.locale) ?? 'en');
  document.documentElement.lang = /^fr(-|$)/i.test(params.get('locale') ?? '') ? 'fr' : 'en';
  applyTheme(checkTheme(Object.fromEntries(params)));

  const send = (event: CardFrameEvent) =>
    window.parent.postMessage({ ...event, tag: CARD_FRAME_TAG, secret }, pageOrigin);

  const inputs = {} as Record<CardField, HTMLInputElement>;
  const errors = {} as Record<CardField, HTMLElement>;
  const values: Record<CardField, string> = { number: '', expiry: '', cvc: '', name: '' };
  const checked = new Set<CardField>();
  // The brand in words for screen readers (the field's description), its logo inside the field.
  const brandNote = element('span', { class: 'visually-hidden', id: 'card-brand' });
  const brandMark = element('span', { class: 'card-brand' });
  const live = element('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const labels: Record<CardField, string> = {
    number: texts.numberLabel,
    expiry: texts.expiryLabel,
    cvc: texts.cvcLabel,
    name: texts.nameLabel,
  };
  const brandNames = {
    visa: texts.brandVisa,
    mastercard: texts.brandMastercard,
    amex: texts.brandAmex,
    verve: texts.brandVerve,
    discover: texts.brandDiscover,
  };

  function field(name: CardField): HTMLElement {
    const input = element('input', {
      id: name,
      type: 'text',
      name: INPUT_NAMES[name],
      autocomplete: AUTOCOMPLETE[name],
      spellcheck: 'false',
      required: '',
      ...(name === 'name' ? { maxlength: '100' } : { inputmode: 'numeric' }),
    });
    inputs[name] = input;
    errors[name] = element('p', { class: 'field-error', id: `${name}-error`, hidden: '' });
    input.addEventListener('input', () => take(name));
    input.addEventListener('change', () => take(name));
    input.addEventListener('blur', () => {
      take(name);
      if (values[name].trim() !== '') checked.add(name);
      render();
    });
    return element(
      'div',
      { class: 'field' },
      element('label', { for: name }, labels[name]),
      element(
        'div',
        { class: 'field-input' },
        input,
        ...(name === 'number' ? [brandNote, brandMark] : []),
      ),
      errors[name],
    );
  }

  /** Reads an input (typing, paste and autofill alike), writes it back formatted, keeps the caret. */
  function take(name: CardField): void {
    const input = inputs[name];
    const text = input.value;
    const value = formatField(name, text, values[name]);
    if (value !== text) {
      const caret = input.selectionStart ?? text.length;
      input.value = value;
      if (caret < text.length && document.activeElement === input) {
        const position = afterDigits(value, text.slice(0, caret).replace(/\D/g, '').length);
        input.setSelectionRange(position, position);
      }
    }
    values[name] = value;
    render();
  }

  let lastBrand: string | null = null;
  let lastState = '';

  function errorText(key: CardErrorKey): string {
    const length = String(cvcLength(cardBrand(values.number)));
    return texts[key].replace('{length}', length);
  }

  function check() {
    const result = validateCard(values, new Date());
    return result.valid ? {} : result.errors;
  }

  /** Shows what changed and tells the page the narrow state: never a value. */
  function render(): void {
    const problems = check();
    for (const name of FIELDS) {
      const shown = checked.has(name) ? problems[name] : undefined;
      const error = errors[name];
      error.hidden = !shown;
      error.textContent = shown ? errorText(shown) : '';
      const input = inputs[name];
      if (shown) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      const described = [
        name === 'number' && brandNote.textContent ? 'card-brand' : '',
        shown ? `${name}-error` : '',
      ]
        .filter(Boolean)
        .join(' ');
      if (described) input.setAttribute('aria-describedby', described);
      else input.removeAttribute('aria-describedby');
    }
    const brand = cardBrand(values.number);
    const brandName = brand ? brandNames[brand] : '';
    if (brandName !== lastBrand) {
      brandNote.textContent = brandName;
      brandMark.replaceChildren(...brandLogo(brand));
      if (brandName) live.textContent = brandName;
      lastBrand = brandName;
    }
    const fields = {} as Record<CardField, CardFieldState>;
    for (const name of FIELDS) {
      fields[name] = values[name].trim() === '' ? 'empty' : problems[name] ? 'invalid' : 'complete';
    }
    const last4 = fields.number === 'complete' ? values.number.replace(/\D/g, '').slice(-4) : null;
    const state = JSON.stringify([brand, fields, last4]);
    if (state !== lastState) {
      lastState = state;
      send({ type: 'state', brand, fields, last4 });
    }
  }

  function focusFirstInvalid(): void {
    const problems = check();
    inputs[FIELDS.find((name) => problems[name]) ?? 'number'].focus();
  }

  let busy = false;

  async function submit(customer: unknown): Promise<void> {
    if (busy) return;
    // The inputs are the truth: a fill that fired no event still counts.
    for (const name of FIELDS) take(name);
    for (const name of FIELDS) checked.add(name);
    render();
    const result = validateCard(values, new Date());
    if (!result.valid) {
      live.textContent = texts.errorsFound;
      focusFirstInvalid();
      send({ type: 'result', result: { kind: 'invalid' } });
      return;
    }
    busy = true;
    for (const name of FIELDS) inputs[name].readOnly = true;
    let outcome: CardFrameResult;
    try {
      const response = await fetch(new URL(CARD_PATH.slice(1), location.href), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          card: result.card,
          ...(customer && typeof customer === 'object' ? { customer } : {}),
        }),
      });
      const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      // Only the answer's own parts cross: a payment, its token, the refusal's code and words.
      const { token: paymentToken, payment, error, checkout } = answer ?? {};
      outcome = response.ok
        ? { kind: 'started', body: { token: paymentToken, payment } }
        : {
            kind: 'refused',
            refusal: {
              status: response.status,
              body: { error, payment, token: paymentToken, checkout },
            },
          };
    } catch {
      outcome = { kind: 'network' };
    }
    if (outcome.kind !== 'started') {
      busy = false;
      for (const name of FIELDS) inputs[name].readOnly = false;
    }
    send({ type: 'result', result: outcome });
  }

  window.addEventListener('message', (event) => {
    if (!isCardFrameMessage(event, { origin: pageOrigin, source: window.parent, secret })) return;
    const command = event.data as { type: string; customer?: unknown; theme?: unknown };
    if (command.type === 'submit') void submit(command.customer);
    else if (command.type === 'focus') focusFirstInvalid();
    else if (command.type === 'theme') applyTheme(checkTheme(command.theme));
  });

  const form = element(
    'form',
    { novalidate: '', 'aria-label': texts.formLabel },
    field('number'),
    element('div', { class: 'field-pair' }, field('expiry'), field('cvc')),
    field('name'),
  );
  // Enter submits as the Pay button does; the button is the page's, outside this frame.
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    send({ type: 'submit-request' });
  });
  document.body.append(form, live);

  const report = () =>
    send({
      type: 'height',
      height: Math.ceil(document.documentElement.getBoundingClientRect().height),
    });
  new ResizeObserver(report).observe(document.documentElement);
  render();
  send({ type: 'ready' });
}

start();
