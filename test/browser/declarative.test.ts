// @vitest-environment jsdom
// The declarative form: a button with data-paydrop-* attributes opens the checkout when clicked.

import { fireEvent, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bindDeclarative } from '../../src/widget/declarative';
import { open } from '../../src/widget/open';
import { FakeEventSource } from './setup-dom';

let fetchCalls: string[];
let unbind: (() => void) | undefined;

beforeEach(() => {
  fetchCalls = [];
  // The companion never answers: these tests are about opening, not paying.
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      fetchCalls.push(url);
      return new Promise<Response>(() => {});
    }),
  );
  vi.stubGlobal('EventSource', FakeEventSource);
  document.body.innerHTML = `
    <main>
      <p>Blue kaftan, ₦25,000.50</p>
      <button type="button" data-paydrop-order="x" data-paydrop-endpoint="/api">Pay with Paydrop</button>
      <a href="/pay" data-paydrop-link="spring-sale"><span>Pay the link</span></a>
      <button type="button" data-paydrop-order="bad order">Broken button</button>
      <button type="button">Add to basket</button>
    </main>`;
});

afterEach(() => {
  unbind?.();
  unbind = undefined;
  // The open checkout, if any, is the one open() hands back for its own target (another target
  // is refused with already_open, closing nothing); closing it empties the page.
  for (const target of [
    { order: 'x', endpoint: '/api' },
    { link: 'spring-sale', endpoint: '/api/checkout' },
  ]) {
    if (document.querySelector('paydrop-checkout')) open(target).close();
  }
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function hosts(): Element[] {
  return [...document.querySelectorAll('paydrop-checkout')];
}

describe('bindDeclarative', () => {
  it('opens the checkout when a data-paydrop-order button is clicked', () => {
    unbind = bindDeclarative(document);
    expect(hosts()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Paydrop' }));
    expect(hosts()).toHaveLength(1);
    expect(fetchCalls).toEqual([`${location.origin}/api/session`]);
  });

  it('opens for a click inside a data-paydrop-link element, with the default endpoint, and keeps the link from navigating', () => {
    unbind = bindDeclarative(document);
    const inner = screen.getByText('Pay the link');
    const proceeded = fireEvent.click(inner);
    expect(proceeded).toBe(false);
    expect(hosts()).toHaveLength(1);
    expect(fetchCalls).toEqual([`${location.origin}/api/checkout/session`]);
  });

  it('does nothing for clicks elsewhere on the page', () => {
    unbind = bindDeclarative(document);
    fireEvent.click(screen.getByRole('button', { name: 'Add to basket' }));
    fireEvent.click(screen.getByText('Blue kaftan, ₦25,000.50'));
    fireEvent.click(document.body);
    expect(hosts()).toHaveLength(0);
    expect(fetchCalls).toEqual([]);
  });

  it('a misconfigured button says why in the console and opens nothing', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    unbind = bindDeclarative(document);
    fireEvent.click(screen.getByRole('button', { name: 'Broken button' }));
    expect(hosts()).toHaveLength(0);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/^TypeError: Paydrop\.open: "order"/);
  });

  it('tells the button when the checkout closes', () => {
    unbind = bindDeclarative(document);
    const button = screen.getByRole('button', { name: 'Pay with Paydrop' });
    const closes: unknown[] = [];
    button.addEventListener('paydrop:close', (event) => closes.push((event as CustomEvent).detail));
    fireEvent.click(button);
    open({ endpoint: '/api', order: 'x' }).close();
    expect(closes).toEqual([{ status: 'cancelled' }]);
    expect(hosts()).toHaveLength(0);
  });

  it('stops listening once the returned function is called', () => {
    const stop = bindDeclarative(document);
    stop();
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Paydrop' }));
    expect(hosts()).toHaveLength(0);
    expect(fetchCalls).toEqual([]);
  });
});
