// @vitest-environment jsdom
// paydrop/react in a React 19 root: PayButton and usePaydrop around the real open(), under
// StrictMode (whose extra mount and unmount run in development, as here). The companion is a
// stubbed global fetch whose session never answers: the dialog stays on "Loading…", enough to
// see what opens, what closes and which callback hears it. The whole journey in Chromium, built
// the way a merchant builds, is test/e2e/react-app.test.ts.

import { within } from '@testing-library/preact';
import {
  act,
  createElement,
  type ReactElement,
  type ReactNode,
  StrictMode,
  useLayoutEffect,
} from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { CheckoutResult } from '../../src/index';
import * as entry from '../../src/react';
import { PayButton, type PayButtonProps, type Paydrop, usePaydrop } from '../../src/react';
import { FakeEventSource } from './setup-dom';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

let fetchCalls: string[];
let root: Root;
let container: HTMLElement;
let visibilityListeners: number;

beforeEach(() => {
  fetchCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      fetchCalls.push(new URL(url).pathname);
      return new Promise<Response>(() => {});
    }),
  );
  vi.stubGlobal('EventSource', FakeEventSource);
  // The listener open() adds to the document, counted in and out.
  visibilityListeners = 0;
  const add = document.addEventListener.bind(document);
  const remove = document.removeEventListener.bind(document);
  vi.spyOn(document, 'addEventListener').mockImplementation((type, listener, options) => {
    if (type === 'visibilitychange') visibilityListeners++;
    add(type, listener, options);
  });
  vi.spyOn(document, 'removeEventListener').mockImplementation((type, listener, options) => {
    if (type === 'visibilitychange') visibilityListeners--;
    remove(type, listener, options);
  });
  container = document.createElement('main');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  document.body.replaceChildren();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function render(element: ReactElement): void {
  act(() => root.render(createElement(StrictMode, null, element)));
}

function payButton(props: Partial<PayButtonProps> = {}, children: ReactNode = 'Pay now') {
  return createElement(
    PayButton,
    { endpoint: '/api/checkout', order: 'order_1042', locale: 'en-NG', ...props },
    children,
  );
}

function click(element: Element | null): void {
  if (!element) throw new Error('nothing to click');
  act(() => element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })));
}

function hosts(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('paydrop-checkout')];
}

async function dialog(): Promise<HTMLElement> {
  const shadow = hosts()[0]?.shadowRoot;
  if (!shadow) throw new Error('no checkout open');
  return within(shadow as unknown as HTMLElement).findByRole('dialog');
}

it('exports PayButton and usePaydrop, nothing else', () => {
  expect(Object.keys(entry).sort()).toEqual(['PayButton', 'usePaydrop']);
});

it('renders a plain button that opens one checkout under StrictMode', async () => {
  render(payButton({ className: 'pay', id: 'pay' }));
  const button = container.querySelector('button');
  expect(button?.outerHTML).toBe(
    '<button type="button" aria-haspopup="dialog" class="pay" id="pay">Pay now</button>',
  );
  // StrictMode has mounted, unmounted and mounted again: nothing opened on the way.
  expect(hosts()).toEqual([]);
  expect(visibilityListeners).toBe(0);

  click(button);
  expect(hosts()).toHaveLength(1);
  expect(within(await dialog()).getAllByText('Loading…')).toHaveLength(1);
  expect(fetchCalls).toEqual(['/api/checkout/session']);
  expect(visibilityListeners).toBe(1);

  // A second click while it is open changes nothing.
  click(button);
  expect(hosts()).toHaveLength(1);
  expect(fetchCalls).toEqual(['/api/checkout/session']);
});

it('closes the checkout when the button unmounts, leaving no listener behind', async () => {
  const onClose = vi.fn<(result: CheckoutResult) => void>();
  render(payButton({ onClose }));
  click(container.querySelector('button'));
  await dialog();

  render(createElement('p', null, 'Thank you'));
  expect(hosts()).toEqual([]);
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(onClose).toHaveBeenCalledWith({ status: 'cancelled' });
  expect(visibilityListeners).toBe(0);
});

it('calls the callback of the latest render, without reopening', async () => {
  const first = vi.fn();
  const latest = vi.fn();
  render(payButton({ onClose: first }, 'Pay ₦25,000.50'));
  click(container.querySelector('button'));
  const host = hosts()[0];
  await dialog();

  render(payButton({ onClose: latest }, 'Pay ₦25,000.50 now'));
  expect(hosts()).toEqual([host]);
  expect(fetchCalls).toEqual(['/api/checkout/session']);

  click(within(await dialog()).getByRole('button', { name: 'Close' }));
  expect(hosts()).toEqual([]);
  expect(first).not.toHaveBeenCalled();
  expect(latest).toHaveBeenCalledTimes(1);

  // Closed, it opens again on the next click.
  click(container.querySelector('button'));
  expect(hosts()).toHaveLength(1);
});

it('reports a bad prop with open()’s TypeError on click, and opens nothing', () => {
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent) => {
    errors.push(event.error);
    event.preventDefault();
  };
  window.addEventListener('error', onError);
  try {
    render(payButton({ order: 'order 1042 ; drop' }));
    click(container.querySelector('button'));
    render(payButton({ onSuccess: 'thanks' as never }));
    click(container.querySelector('button'));
  } finally {
    window.removeEventListener('error', onError);
  }
  expect(errors).toEqual([
    new TypeError('Paydrop.open: "order" must be 1 to 128 letters, digits or . _ : -'),
    new TypeError('Paydrop.open: "onSuccess" must be a function.'),
  ]);
  expect(hosts()).toEqual([]);
  expect(fetchCalls).toEqual([]);
});

it('runs an onClick of its own first; preventDefault() in it keeps the checkout closed', () => {
  const onClick = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
  render(payButton({ onClick }));
  click(container.querySelector('button'));
  expect(onClick).toHaveBeenCalledTimes(1);
  expect(hosts()).toEqual([]);
});

it('usePaydrop: open(overrides), isOpen, close()', async () => {
  let paydrop: Paydrop | undefined;
  const onClose = vi.fn();
  function Shop(): ReactElement {
    const current = usePaydrop({ endpoint: '/api/checkout', order: 'order_1042', onClose });
    useLayoutEffect(() => {
      paydrop = current;
    });
    return createElement('p', null, current.isOpen ? 'Paying' : 'Not paying');
  }
  render(createElement(Shop));
  expect(container.textContent).toBe('Not paying');

  act(() => paydrop?.open({ order: 'order_2000', locale: 'fr' }));
  expect(container.textContent).toBe('Paying');
  expect(hosts()).toHaveLength(1);
  expect(fetchCalls).toEqual(['/api/checkout/session']);
  await dialog();

  act(() => paydrop?.close());
  expect(container.textContent).toBe('Not paying');
  expect(hosts()).toEqual([]);
  expect(onClose).toHaveBeenCalledWith({ status: 'cancelled' });
  expect(() => paydrop?.open({ endpoint: '' })).toThrow(
    new TypeError(
      'Paydrop.open: "endpoint" is required: the companion\'s path, e.g. "/api/checkout".',
    ),
  );
  expect(container.textContent).toBe('Not paying');
});

it('usePaydrop: isOpen follows a checkout another component opened, and an already_open refusal', async () => {
  const refusals = vi.fn();
  const hooks: Record<string, Paydrop> = {};
  function Pay({ name, order }: { name: string; order: string }): ReactElement {
    const current = usePaydrop({ endpoint: '/api/checkout', order, onFailure: refusals });
    useLayoutEffect(() => {
      hooks[name] = current;
    });
    return createElement('p', null, `${name}: ${current.isOpen ? 'open' : 'closed'}`);
  }
  render(
    createElement(
      'div',
      null,
      createElement(Pay, { name: 'header', order: 'order_1042' }),
      createElement(Pay, { name: 'footer', order: 'order_1042' }),
      createElement(Pay, { name: 'other', order: 'order_2000' }),
    ),
  );
  act(() => hooks.header?.open());
  await dialog();
  // The same order from another component: the open checkout, one dialog.
  act(() => hooks.footer?.open());
  expect(hosts()).toHaveLength(1);
  expect(container.textContent).toBe('header: openfooter: openother: closed');

  // Another order is refused at once (after open() returned) and that component stays closed.
  await act(async () => hooks.other?.open());
  expect(refusals).toHaveBeenCalledWith(expect.objectContaining({ code: 'already_open' }));
  expect(container.textContent).toBe('header: openfooter: openother: closed');
  expect(hosts()).toHaveLength(1);

  // Closed by the component that opened it: every component that asked sees it closed.
  act(() => hooks.header?.close());
  expect(hosts()).toEqual([]);
  expect(container.textContent).toBe('header: closedfooter: closedother: closed');
  act(() => hooks.footer?.open());
  expect(hosts()).toHaveLength(1);
  expect(container.textContent).toBe('header: closedfooter: openother: closed');
});
