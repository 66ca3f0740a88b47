// @vitest-environment jsdom
// open(): the imperative shell. One host element with a shadow root holding the dialog; a second
// open() returns the same checkout, or fails with already_open for another order; close() undoes
// everything; bad options change nothing.
// The companion is reached through a stubbed global fetch (and a fake EventSource for pushes).

import { screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutResult } from '../../src/flow/checkout-model';
import { type CheckoutHandle, open } from '../../src/widget/open';
import type { OpenOptions } from '../../src/widget/options';
import { FakeEventSource } from './setup-dom';

const NOW = Date.now();

const SESSION = {
  token: 'session-token',
  checkout: {
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    description: 'Order 1042',
    channels: [{ name: 'PayByTransfer', description: null }],
  },
  payment: null,
};

const INITIATION = {
  token: 'payment-token',
  payment: {
    reference: 'ref_0001',
    channel: 'PayByTransfer',
    status: 'PENDING',
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    fees: { amountMinor: 0, currency: 'NGN' },
    virtualAccount: {
      bank: 'Wema Bank',
      accountNumber: '0123456789',
      accountName: 'Paydrop / Amina Stores',
      note: '',
      expiresAt: new Date(NOW + 30 * 60_000).toISOString(),
    },
    bankAuthUrl: null,
    serverTime: new Date(NOW).toISOString(),
  },
};

type Route = '/session' | '/initiate' | '/status';
/** What the companion answers per path: a body, or 'hang' for a call that never returns. */
let answers: Partial<Record<Route, unknown>>;
let fetchCalls: string[];
const handles: CheckoutHandle[] = [];

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

beforeEach(() => {
  answers = { '/session': 'hang', '/initiate': 'hang', '/status': { status: 'PENDING' } };
  fetchCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      fetchCalls.push(url);
      const path = new URL(url, 'http://shop.test').pathname.replace('/api/checkout', '') as Route;
      const answer = answers[path];
      if (answer === undefined) return json({ error: { code: 'not_found' } }, 404);
      if (answer === 'hang') return new Promise<Response>(() => {});
      return json(answer);
    }),
  );
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});

afterEach(() => {
  for (const handle of handles.splice(0)) handle.close();
  for (const host of document.querySelectorAll('paydrop-checkout')) host.remove();
  document.body.replaceChildren();
  document.documentElement.lang = '';
  vi.unstubAllGlobals();
});

function openCheckout(options: Partial<OpenOptions> = {}): CheckoutHandle {
  const handle = open({
    endpoint: '/api/checkout',
    order: 'order_1042',
    locale: 'en-NG',
    ...options,
  });
  handles.push(handle);
  return handle;
}

function hosts(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('paydrop-checkout')];
}

/** The dialog, queried inside the host's shadow root as a person would find it. */
async function shadowDialog(): Promise<HTMLElement> {
  const host = hosts()[0];
  const root = host?.shadowRoot;
  if (!root) throw new Error('no open shadow root');
  return within(root as unknown as HTMLElement).findByRole('dialog');
}

describe('open()', () => {
  it('adds one <paydrop-checkout> whose open shadow root holds the open dialog', async () => {
    openCheckout();
    expect(hosts()).toHaveLength(1);
    const host = hosts()[0] as HTMLElement;
    expect(host.parentElement).toBe(document.body);
    expect(host.shadowRoot?.mode).toBe('open');

    const dialog = (await shadowDialog()) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(within(dialog).getAllByText('Loading…')).toHaveLength(1);
    // Nothing of the checkout leaks into the page's own tree.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchCalls).toEqual([`${location.origin}/api/checkout/session`]);
  });

  it('names the dialog after the order once the session arrives', async () => {
    answers['/session'] = SESSION;
    openCheckout();
    await waitFor(async () => {
      const dialog = await shadowDialog();
      expect(within(dialog).getAllByRole('heading', { name: 'Order 1042' })).toHaveLength(1);
    });
    const dialog = await shadowDialog();
    // Named for the checkout and the order (issue 12).
    expect(dialog.getAttribute('aria-labelledby')).toBe('paydrop-label paydrop-title');
    expect(dialog.querySelector('#paydrop-label')?.textContent).toBe('Checkout');
    expect(within(dialog).getAllByText('Setting up your payment…')).toHaveLength(1);
  });

  it('opened again for the same order returns the open checkout; each caller hears it close', async () => {
    const first = { onClose: vi.fn(), onFailure: vi.fn() };
    const again = { onClose: vi.fn(), onFailure: vi.fn(), onPending: vi.fn() };
    const handle = openCheckout(first);
    // The same companion written another way is the same checkout.
    const second = openCheckout({ ...again, endpoint: `${location.origin}/api/checkout/` });
    expect(second).toBe(handle);
    // The same callbacks again (a double click) are heard once.
    expect(openCheckout(first)).toBe(handle);
    expect(hosts()).toHaveLength(1);
    await shadowDialog();
    expect(fetchCalls).toEqual([`${location.origin}/api/checkout/session`]);

    handle.close();
    await expect(second.result).resolves.toEqual({ status: 'cancelled' });
    // Both callers learn the dialog is gone (a component's isOpen follows); it closed once.
    expect(first.onClose).toHaveBeenCalledTimes(1);
    expect(again.onClose).toHaveBeenCalledTimes(1);
    expect(again.onClose).toHaveBeenCalledWith({ status: 'cancelled' });
    expect(hosts()).toHaveLength(0);
  });

  it.each<[string, string, OpenOptions]>([
    ['another order', 'order_2000', { endpoint: '/api/checkout', order: 'order_2000' }],
    ['a payment link', 'lnk_spring', { endpoint: '/api/checkout', link: 'lnk_spring' }],
    [
      'another companion',
      'order_1042',
      { endpoint: 'https://pay.elsewhere.example/api/checkout', order: 'order_1042' },
    ],
  ])(
    'opened for %s while one is open fails with already_open, the open one untouched',
    async (_, target, other) => {
      const first = { onClose: vi.fn(), onFailure: vi.fn() };
      const handle = openCheckout(first);
      await shadowDialog();
      const onFailure = vi.fn();
      const onClose = vi.fn();
      const refused = open({ ...other, onFailure, onClose });

      expect(refused).not.toBe(handle);
      const error = {
        code: 'already_open',
        message: `Paydrop.open: a checkout for order_1042 is open; close it before opening ${target}.`,
      };
      await expect(refused.result).resolves.toEqual({ status: 'failed', error, payment: null });
      expect(onFailure).toHaveBeenCalledWith(error);
      expect(onClose).toHaveBeenCalledWith({ status: 'failed', error, payment: null });
      // Never a second dialog, nor a request for the other order; closing the refusal does nothing.
      refused.close();
      expect(hosts()).toHaveLength(1);
      expect(await shadowDialog()).toBeInstanceOf(HTMLElement);
      expect(fetchCalls).toEqual([`${location.origin}/api/checkout/session`]);
      expect(first.onFailure).not.toHaveBeenCalled();
      expect(first.onClose).not.toHaveBeenCalled();

      // Once the first is closed, the other order opens.
      handle.close();
      handles.push(open(other));
      expect(hosts()).toHaveLength(1);
    },
  );

  it('close() removes the host, resolves cancelled, calls onClose, and gives focus back', async () => {
    const payButton = document.createElement('button');
    payButton.textContent = 'Pay now';
    document.body.append(payButton);
    payButton.focus();
    const onClose = vi.fn<(result: CheckoutResult) => void>();
    const onPending = vi.fn();

    const handle = openCheckout({ onClose, onPending });
    await shadowDialog();
    expect(document.activeElement).not.toBe(payButton);

    handle.close();
    expect(hosts()).toHaveLength(0);
    await expect(handle.result).resolves.toEqual({ status: 'cancelled' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledWith({ status: 'cancelled' });
    expect(onPending).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(payButton);
  });

  it('gives focus to the main landmark when the app replaced the opener, leaving it as it was (issue 12)', async () => {
    const main = document.createElement('main');
    const payButton = document.createElement('button');
    payButton.textContent = 'Pay now';
    main.append(payButton);
    document.body.append(main);
    payButton.focus();
    const handle = openCheckout({ onClose: () => payButton.remove() });
    await shadowDialog();
    handle.close();
    expect(document.activeElement).toBe(main);
    expect(main.getAttribute('tabindex')).toBe('-1');
    main.blur();
    expect(main.hasAttribute('tabindex')).toBe(false);
    main.remove();
  });

  it('close() twice reports once; a later open() starts a fresh checkout', async () => {
    const onClose = vi.fn();
    const first = openCheckout({ onClose });
    first.close();
    first.close();
    expect(onClose).toHaveBeenCalledTimes(1);

    const second = openCheckout();
    expect(second).not.toBe(first);
    expect(hosts()).toHaveLength(1);
    await shadowDialog();
  });

  it('closing before the catalogue has loaded renders nothing afterwards', async () => {
    const handle = openCheckout({ locale: 'fr' });
    handle.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hosts()).toHaveLength(0);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('with bad options throws and adds nothing to the document', () => {
    const before = document.body.innerHTML;
    expect(() => open({ endpoint: '', order: 'order_1042' })).toThrow(/^Paydrop\.open: "endpoint"/);
    expect(() => open({ endpoint: '/api', order: 'a b' })).toThrow(TypeError);
    expect(() => open({ endpoint: '/api', order: 'o1', customer: { email: 42 } as never })).toThrow(
      /customer\.email/,
    );
    expect(document.body.innerHTML).toBe(before);
    expect(hosts()).toHaveLength(0);
    expect(fetchCalls).toEqual([]);
  });

  it('bad options do not disturb a checkout that is already open', async () => {
    const handle = openCheckout();
    expect(() => open({ endpoint: '/api', order: 'a b' })).toThrow(TypeError);
    expect(hosts()).toHaveLength(1);
    expect(openCheckout()).toBe(handle);
  });

  it('reports every step to onEvent', async () => {
    answers['/session'] = SESSION;
    const steps: string[] = [];
    openCheckout({ onEvent: (event) => steps.push(`${event.type}:${event.step}`) });
    await waitFor(() => expect(steps).toEqual(['step:loading', 'step:starting']));
  });

  it('pushes the outcome to the page the moment it is known, before the dialog closes', async () => {
    answers['/session'] = SESSION;
    answers['/initiate'] = INITIATION;
    const onSuccess = vi.fn();
    const onClose = vi.fn();
    const handle = openCheckout({ onSuccess, onClose });
    const dialog = await shadowDialog();
    await waitFor(() => expect(within(dialog).getAllByText('012 345 6789')).toHaveLength(1));

    const events = FakeEventSource.instances[0] as FakeEventSource;
    expect(events.url).toBe(`${location.origin}/api/checkout/events?token=payment-token`);
    events.emit('status', JSON.stringify({ status: 'SUCCESSFUL' }));

    const summary = {
      reference: 'ref_0001',
      channel: 'PayByTransfer',
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
    };
    await expect(handle.result).resolves.toEqual({ status: 'succeeded', payment: summary });
    expect(onSuccess).toHaveBeenCalledWith(summary);
    expect(onClose).not.toHaveBeenCalled();
    expect(events.closed).toBe(true);
    await waitFor(() =>
      expect(within(dialog).getAllByRole('heading', { name: 'Payment received' })).toHaveLength(1),
    );
  });

  it('checks the status at once when the tab comes back, and stops listening once closed', async () => {
    answers['/session'] = SESSION;
    answers['/initiate'] = INITIATION;
    const handle = openCheckout();
    const dialog = await shadowDialog();
    await waitFor(() => expect(within(dialog).getAllByText('012 345 6789')).toHaveLength(1));
    const statusCalls = () => fetchCalls.filter((url) => url.endsWith('/status')).length;
    const before = statusCalls();

    // A laptop wakes up: the countdown may be stale, so the widget asks the server right away.
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(statusCalls()).toBe(before + 1));

    handle.close();
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statusCalls()).toBe(before + 1);
  });

  it('closed during a transfer, resolves pending and calls onPending', async () => {
    answers['/session'] = SESSION;
    answers['/initiate'] = INITIATION;
    const onPending = vi.fn();
    const onClose = vi.fn();
    const handle = openCheckout({ onPending, onClose });
    const dialog = await shadowDialog();
    await waitFor(() => expect(within(dialog).getAllByText('012 345 6789')).toHaveLength(1));

    handle.close();
    const pending = {
      status: 'pending',
      payment: {
        reference: 'ref_0001',
        channel: 'PayByTransfer',
        amount: { amountMinor: 2_500_050, currency: 'NGN' },
      },
    };
    await expect(handle.result).resolves.toEqual(pending);
    expect(onPending).toHaveBeenCalledWith(pending.payment);
    expect(onClose).toHaveBeenCalledWith(pending);
    expect((FakeEventSource.instances[0] as FakeEventSource).closed).toBe(true);
  });

  it('leaves no document listeners behind after opening and closing', () => {
    const added: string[] = [];
    const removed: string[] = [];
    const add = document.addEventListener.bind(document);
    const remove = document.removeEventListener.bind(document);
    vi.spyOn(document, 'addEventListener').mockImplementation((type, ...rest) => {
      added.push(type);
      add(type, ...rest);
    });
    vi.spyOn(document, 'removeEventListener').mockImplementation((type, ...rest) => {
      removed.push(type);
      remove(type, ...rest);
    });
    for (let i = 0; i < 3; i++) openCheckout().close();
    expect(added.length).toBeGreaterThan(0);
    expect(removed.sort()).toEqual(added.sort());
    vi.restoreAllMocks();
  });

  // A common page mistake: <html lang="en_US">. open() takes the page's language when no locale
  // is given, and Intl refuses the underscore; the customer must still get a working checkout.
  it('still shows the amount when the page declares its language as "en_US"', async () => {
    document.documentElement.lang = 'en_US';
    answers['/session'] = SESSION;
    handles.push(open({ endpoint: '/api/checkout', order: 'order_1042' }));
    const dialog = await shadowDialog();
    await waitFor(() =>
      expect(within(dialog).getAllByText(/^₦25,000\.50$/, { selector: '.total' })).toHaveLength(1),
    );
  });
});
