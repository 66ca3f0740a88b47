// @vitest-environment jsdom
// The card fields as a customer meets them: typing, pasting and autofill, errors when a field is
// left or the form sent, and the card handed over once, exactly as typed, and nowhere else.

import { fireEvent, render, screen } from '@testing-library/preact';
import * as preact from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type CardDetails,
  CardFields,
  type CardMessages,
  cardMessagesEn,
  cardMessagesFr,
} from '../../src/widget/channels/card/chunk';
import { axeViolations } from './axe';
import './setup-dom';

/** 15 May 2026, midday UTC. */
const NOW = new Date(Date.UTC(2026, 4, 15, 12));

function renderFields(options: { messages?: CardMessages; busy?: boolean } = {}) {
  const onSubmit = vi.fn<(card: CardDetails) => void>();
  const props = {
    messages: options.messages ?? cardMessagesEn,
    amountText: '₦25,000.50',
    now: () => NOW,
    onSubmit,
    busy: options.busy ?? false,
  };
  const view = render(preact.h(CardFields, props));
  const rerender = (busy: boolean) => view.rerender(preact.h(CardFields, { ...props, busy }));
  return { ...view, onSubmit, rerender };
}

function field(name: string | RegExp): HTMLInputElement {
  return screen.getByRole('textbox', { name }) as HTMLInputElement;
}

const number = () => field('Card number');
const expiry = () => field('Expiry date (MM / YY)');
const cvc = () => field('Security code');
const holder = () => field('Name on card');
const payButton = () => screen.getByRole('button', { name: 'Pay ₦25,000.50' });

/** Types one character at a time at the end of the field, as a keyboard does. */
function type(input: HTMLInputElement, text: string): void {
  input.focus();
  for (const character of text) {
    fireEvent.input(input, { target: { value: input.value + character } });
  }
}

/** Backspace at the end of the field. */
function backspace(input: HTMLInputElement): void {
  fireEvent.input(input, { target: { value: input.value.slice(0, -1) } });
}

/** Leaves the field, as Tab or a click elsewhere does. */
function leave(input: HTMLInputElement): void {
  fireEvent.blur(input);
}

/** The error that describes an input, found through aria-describedby. */
function errorOf(input: HTMLInputElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const errors = ids
    .map((id) => document.getElementById(id))
    .filter((element) => element?.classList.contains('field-error'));
  return errors.map((element) => element?.textContent).join(' ') || null;
}

function fillValid(options: { number?: string; cvc?: string } = {}): void {
  type(number(), options.number ?? '4242424242424242');
  type(expiry(), '1228');
  type(cvc(), options.cvc ?? '123');
  type(holder(), 'Amina Bello');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the card number', () => {
  it('is grouped in fours as it is typed, and names the brand beside it', () => {
    renderFields();
    expect(screen.queryByText('Visa')).toBeNull();
    type(number(), '42424');
    expect(number().value).toBe('4242 4');
    expect(screen.getByText('Visa')).toBeTruthy();
    type(number(), '24242424242');
    expect(number().value).toBe('4242 4242 4242 4242');
  });

  it('is grouped 4-6-5 for American Express', () => {
    renderFields();
    type(number(), '378282246310005');
    expect(number().value).toBe('3782 822463 10005');
    expect(screen.getByText('American Express')).toBeTruthy();
  });

  it('describes the input with the brand, so a screen reader hears it too', () => {
    renderFields();
    type(number(), '5555');
    expect(screen.getByRole('textbox', { name: 'Card number', description: 'Mastercard' })).toBe(
      number(),
    );
  });

  it('follows the brand as it changes and drops it when the digits no longer settle on one', () => {
    renderFields();
    type(number(), '6');
    expect(screen.queryByText('Discover')).toBeNull();
    type(number(), '011');
    expect(screen.getByText('Discover')).toBeTruthy();
    fireEvent.input(number(), { target: { value: '5060 99' } });
    expect(screen.getByText('Verve')).toBeTruthy();
    fireEvent.input(number(), { target: { value: '' } });
    expect(screen.queryByText('Verve')).toBeNull();
  });

  it('takes a pasted number with spaces or dashes, and drops what is not a digit', () => {
    renderFields();
    fireEvent.input(number(), { target: { value: '4242-4242-4242-4242' } });
    expect(number().value).toBe('4242 4242 4242 4242');
    fireEvent.input(number(), { target: { value: ' 5555 5555 5555 4444 ' } });
    expect(number().value).toBe('5555 5555 5555 4444');
    fireEvent.input(number(), { target: { value: '4242abc' } });
    expect(number().value).toBe('4242');
  });

  it('stops at the longest number of the brand', () => {
    renderFields();
    type(number(), '55555555555544449');
    expect(number().value).toBe('5555 5555 5555 4444');
  });

  it('keeps the caret among the same digits when a digit is typed in the middle', () => {
    renderFields();
    type(number(), '42424242');
    const input = number();
    // The caret after the first "4242", a 1 typed: the browser shows "42421 4242", caret after 1.
    input.value = '42421 4242';
    input.setSelectionRange(5, 5);
    fireEvent.input(input);
    expect(input.value).toBe('4242 1424 2');
    // Still right after the 1, which moved past the space; not thrown to the end.
    expect(input.selectionStart).toBe(6);
    expect(input.selectionEnd).toBe(6);
  });

  it('shows a Luhn failure when the customer leaves the field, not while typing', () => {
    renderFields();
    type(number(), '4242424242424241');
    expect(errorOf(number())).toBeNull();
    expect(screen.queryByText(/not valid/)).toBeNull();
    leave(number());
    expect(number().getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(number())).toBe('This card number is not valid. Check it and try again.');
    // Fixing it clears the error as soon as the number is right.
    backspace(number());
    type(number(), '2');
    expect(errorOf(number())).toBeNull();
    expect(number().hasAttribute('aria-invalid')).toBe(false);
    expect(number().getAttribute('aria-describedby')).not.toContain('error');
  });

  it('says a short number is incomplete when the customer leaves it', () => {
    renderFields();
    type(number(), '424242');
    leave(number());
    expect(errorOf(number())).toBe('Your card number is incomplete.');
  });

  it('shows no error for an empty field the customer only passed through', () => {
    renderFields();
    number().focus();
    leave(number());
    expect(errorOf(number())).toBeNull();
  });
});

describe('the expiry date', () => {
  it('is formatted MM / YY as typed, and backspace goes through the separator', () => {
    renderFields();
    type(expiry(), '1');
    expect(expiry().value).toBe('1');
    type(expiry(), '2');
    expect(expiry().value).toBe('12 / ');
    type(expiry(), '2');
    expect(expiry().value).toBe('12 / 2');
    type(expiry(), '8');
    expect(expiry().value).toBe('12 / 28');
    backspace(expiry());
    backspace(expiry());
    expect(expiry().value).toBe('12 / ');
    backspace(expiry());
    expect(expiry().value).toBe('12');
    backspace(expiry());
    expect(expiry().value).toBe('1');
  });

  it('reads a single 3 as March, also when it replaces a whole date', () => {
    renderFields();
    type(expiry(), '3');
    expect(expiry().value).toBe('03 / ');
    fireEvent.input(expiry(), { target: { value: '1228' } });
    expect(expiry().value).toBe('12 / 28');
    // Select all, type 3: shorter than before, but no deletion.
    fireEvent.input(expiry(), { target: { value: '3' } });
    expect(expiry().value).toBe('03 / ');
  });

  it('says a date before this month is in the past', () => {
    renderFields();
    type(expiry(), '0426');
    leave(expiry());
    expect(errorOf(expiry())).toBe('This card has expired. Check the date or use another card.');
  });

  it('takes this month', () => {
    renderFields();
    type(expiry(), '0526');
    leave(expiry());
    expect(errorOf(expiry())).toBeNull();
  });

  it('says a date that is no date is invalid', () => {
    renderFields();
    type(expiry(), '12 / 2');
    leave(expiry());
    expect(errorOf(expiry())).toBe(
      'Enter the expiry date as it is on your card, for example 08 / 29.',
    );
  });
});

describe('the security code', () => {
  it('wants 4 digits for American Express and says so', () => {
    renderFields();
    type(number(), '378282246310005');
    type(cvc(), '123');
    leave(cvc());
    expect(errorOf(cvc())).toBe('Enter the 4-digit security code.');
    type(cvc(), '4');
    expect(cvc().value).toBe('1234');
    expect(errorOf(cvc())).toBeNull();
  });

  it('wants 3 digits for other cards, and takes digits only', () => {
    renderFields();
    type(number(), '4242424242424242');
    type(cvc(), '1a234');
    expect(cvc().value).toBe('1234');
    leave(cvc());
    expect(errorOf(cvc())).toBe('Enter the 3-digit security code.');
    backspace(cvc());
    expect(errorOf(cvc())).toBeNull();
  });
});

describe('sending the form', () => {
  it('with errors shows them all, focuses the first invalid field, and sends nothing', () => {
    const { onSubmit } = renderFields();
    type(number(), '4242424242424241');
    type(expiry(), '1228');
    type(holder(), 'Amina Bello');
    fireEvent.click(payButton());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(number());
    expect(errorOf(number())).toBe('This card number is not valid. Check it and try again.');
    expect(errorOf(cvc())).toBe('Enter the 3-digit security code.');
    expect(errorOf(expiry())).toBeNull();
    expect(errorOf(holder())).toBeNull();
  });

  it('focuses the first invalid field in the order of the form', () => {
    const { onSubmit } = renderFields();
    type(number(), '4242424242424242');
    type(cvc(), '123');
    fireEvent.click(payButton());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(expiry());
    expect(errorOf(expiry())).toBe(
      'Enter the expiry date as it is on your card, for example 08 / 29.',
    );
    expect(errorOf(holder())).toBe('Enter the name as it is on your card.');
  });

  it('empty, says what each field needs', () => {
    renderFields();
    fireEvent.click(payButton());
    expect(document.activeElement).toBe(number());
    expect(errorOf(number())).toBe('Your card number is incomplete.');
    expect(errorOf(expiry())).toBe(
      'Enter the expiry date as it is on your card, for example 08 / 29.',
    );
    expect(errorOf(cvc())).toBe('Enter the 3-digit security code.');
    expect(errorOf(holder())).toBe('Enter the name as it is on your card.');
  });

  it('valid, hands over the card once, exactly as the companion takes it', () => {
    const { onSubmit } = renderFields();
    fillValid();
    fireEvent.click(payButton());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({
      number: '4242424242424242',
      expiryMonth: 12,
      expiryYear: 2028,
      cvv: '123',
      holderName: 'Amina Bello',
    });
    expect(screen.queryByText(/not valid|incomplete|Enter the/)).toBeNull();
  });

  it('is sent by Enter in a field too', () => {
    const { onSubmit, container } = renderFields();
    fillValid({ number: '378282246310005', cvc: '1234' });
    fireEvent.submit(container.querySelector('form') as HTMLFormElement);
    expect(onSubmit).toHaveBeenCalledWith({
      number: '378282246310005',
      expiryMonth: 12,
      expiryYear: 2028,
      cvv: '1234',
      holderName: 'Amina Bello',
    });
  });

  it('is not sent while the payment is under way: the button is disabled', () => {
    const { onSubmit, container, rerender } = renderFields();
    fillValid();
    rerender(true);
    expect((payButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(container.querySelector('form') as HTMLFormElement);
    expect(onSubmit).not.toHaveBeenCalled();
    // What the customer typed survives the redraw.
    expect(number().value).toBe('4242 4242 4242 4242');
    rerender(false);
    expect((payButton() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(payButton());
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('keeps the card nowhere: no storage, no console', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const logs = (['log', 'info', 'debug', 'warn', 'error'] as const).map((method) =>
      vi.spyOn(console, method),
    );
    const { onSubmit } = renderFields();
    fillValid();
    fireEvent.click(payButton());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(setItem).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    for (const log of logs) expect(log).not.toHaveBeenCalled();
    expect(document.cookie).toBe('');
  });
});

describe('browser autofill', () => {
  /** What a browser's fill does: set the values of several fields, then fire input and change. */
  function autofill(values: ReadonlyArray<readonly [HTMLInputElement, string]>): void {
    for (const [input, value] of values) input.value = value;
    for (const [input] of values) {
      fireEvent.input(input);
      fireEvent.change(input);
    }
  }

  it('fills several fields at once, a full-year expiry included, and ends valid', () => {
    const { onSubmit } = renderFields();
    autofill([
      [number(), '4242424242424242'],
      [expiry(), '12/2028'],
      [holder(), 'Amina Bello'],
    ]);
    expect(number().value).toBe('4242 4242 4242 4242');
    expect(expiry().value).toBe('12 / 28');
    expect(holder().value).toBe('Amina Bello');
    expect(screen.getByText('Visa')).toBeTruthy();
    type(cvc(), '123');
    leave(cvc());
    for (const input of [number(), expiry(), cvc(), holder()]) expect(errorOf(input)).toBeNull();
    fireEvent.click(payButton());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({
      number: '4242424242424242',
      expiryMonth: 12,
      expiryYear: 2028,
      cvv: '123',
      holderName: 'Amina Bello',
    });
  });

  it('takes a fill that fires only change events, as some browsers do', () => {
    const { onSubmit } = renderFields();
    for (const [input, value] of [
      [number(), '5555 5555 5555 4444'],
      [expiry(), '07/2030'],
      [holder(), 'Chidi Okafor'],
    ] as const) {
      input.value = value;
      fireEvent.change(input);
    }
    expect(expiry().value).toBe('07 / 30');
    type(cvc(), '999');
    fireEvent.click(payButton());
    expect(onSubmit).toHaveBeenCalledWith({
      number: '5555555555554444',
      expiryMonth: 7,
      expiryYear: 2030,
      cvv: '999',
      holderName: 'Chidi Okafor',
    });
  });

  it('takes a fill that fired no event at all when the form is sent', () => {
    const { onSubmit } = renderFields();
    type(cvc(), '123');
    number().value = '4242424242424242';
    expiry().value = '1228';
    holder().value = 'Amina Bello';
    fireEvent.click(payButton());
    expect(number().value).toBe('4242 4242 4242 4242');
    expect(expiry().value).toBe('12 / 28');
    expect(onSubmit).toHaveBeenCalledWith({
      number: '4242424242424242',
      expiryMonth: 12,
      expiryYear: 2028,
      cvv: '123',
      holderName: 'Amina Bello',
    });
  });

  it('is invited by the autocomplete tokens and the names browsers recognise', () => {
    renderFields();
    const attributes = [number(), expiry(), cvc(), holder()].map((input) => [
      input.getAttribute('autocomplete'),
      input.name,
      input.getAttribute('inputmode'),
      input.type,
    ]);
    expect(attributes).toEqual([
      ['cc-number', 'cardnumber', 'numeric', 'text'],
      ['cc-exp', 'exp-date', 'numeric', 'text'],
      ['cc-csc', 'cvc', 'numeric', 'text'],
      ['cc-name', 'ccname', null, 'text'],
    ]);
    expect(number().closest('form')?.hasAttribute('novalidate')).toBe(true);
  });
});

describe('the form as a whole', () => {
  it('uses no style attributes, so a strict CSP needs no unsafe-inline', () => {
    const { container } = renderFields();
    fillValid();
    fireEvent.click(payButton());
    type(number(), '1');
    leave(number());
    fireEvent.click(payButton());
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });

  it('speaks French', () => {
    renderFields({ messages: cardMessagesFr });
    expect(field('Numéro de carte')).toBeTruthy();
    expect(field('Date d’expiration (MM / AA)')).toBeTruthy();
    expect(field('Code de sécurité')).toBeTruthy();
    expect(field('Nom sur la carte')).toBeTruthy();
    type(field('Numéro de carte'), '378282246310005');
    type(field('Code de sécurité'), '12');
    fireEvent.click(screen.getByRole('button', { name: 'Payer ₦25,000.50' }));
    expect(errorOf(field('Code de sécurité'))).toBe('Saisissez le code de sécurité à 4 chiffres.');
    expect(errorOf(field('Date d’expiration (MM / AA)'))).toBe(
      'Saisissez la date d’expiration indiquée sur votre carte, par exemple 08 / 29.',
    );
    expect(errorOf(field('Nom sur la carte'))).toBe(
      'Saisissez le nom tel qu’il figure sur votre carte.',
    );
  });

  it('has a French text for every English one, and the same placeholders', () => {
    const keys = Object.keys(cardMessagesEn).sort();
    expect(Object.keys(cardMessagesFr).sort()).toEqual(keys);
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const key of keys as (keyof CardMessages)[]) {
      expect(placeholders(cardMessagesFr[key]), key).toEqual(placeholders(cardMessagesEn[key]));
      if (!key.startsWith('brand')) expect(cardMessagesFr[key], key).not.toBe(cardMessagesEn[key]);
    }
  });

  it('gives each form its own ids, so two never share a label or an error', () => {
    render(
      preact.h('div', null, [
        preact.h(CardFields, {
          messages: cardMessagesEn,
          amountText: '£5.00',
          now: () => NOW,
          onSubmit: () => {},
        }),
        preact.h(CardFields, {
          messages: cardMessagesEn,
          amountText: '£6.00',
          now: () => NOW,
          onSubmit: () => {},
        }),
      ]),
    );
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(screen.getAllByRole('textbox', { name: 'Card number' })).toHaveLength(2);
  });

  it('passes axe, empty and with errors shown', async () => {
    const { container } = renderFields();
    expect(await axeViolations(container)).toEqual([]);
    type(number(), '5555');
    fireEvent.click(payButton());
    expect(await axeViolations(container)).toEqual([]);
  });
});
