// @vitest-environment jsdom
// The bank's window for PayByAccount, over a real model and the fake companion: opened blank in the
// customer's click, sent to the bank once the link arrives (and only to a safe link), closed when
// the payment does not start, a full-page redirect when the browser blocks it, the bank's return
// heard on BroadcastChannel, a closed window noticed, and nothing left behind.
import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { loadReturnChunk } from '#chunks';
import { type CheckoutModel, createCheckoutModel } from '../../src/flow/checkout-model';
import { CompanionFailure, type PaymentView } from '../../src/flow/companion';
import { type BankWindow, createBankWindow } from '../../src/widget/channels/bank/bank-window';
import { deferred } from '../helpers/deferred';
import { FakeClock } from '../helpers/fake-clock';
import { argsOf, FakeCompanion } from '../helpers/fake-companion';
import { channels, paymentView, sessionView } from '../helpers/fake-companion-answers';
import { FakePopup } from './fake-popup';
import { settle } from './setup-dom';

// The real chunk loader, watched: the full-page redirect lives in a chunk loaded when needed.
vi.mock('#chunks', async (importOriginal) => {
  const chunks = await importOriginal<typeof import('#chunks')>();
  return { ...chunks, loadReturnChunk: vi.fn(chunks.loadReturnChunk) };
});

const AUTH_URL = 'https://bank.example/authorise/ref_0001';
const REDIRECT_KEY = 'paydrop:redirect';
const TARGET = { order: 'order_1042' };
const RETURN = 'paydrop:bank-return';

function bankPayment(overrides: Partial<PaymentView> = {}): PaymentView {
  return paymentView({
    channel: 'PayByAccount',
    virtualAccount: null,
    bankAuthUrl: AUTH_URL,
    ...overrides,
  });
}

const undo: Array<() => void> = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
  vi.mocked(loadReturnChunk).mockClear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  sessionStorage.clear();
});

/** window.open answering each call with the next of `answers` (a FakePopup, or null: blocked). */
function stubOpen(...answers: Array<FakePopup | null>): MockInstance<typeof window.open> {
  const open = vi.spyOn(window, 'open');
  for (const answer of answers) open.mockReturnValueOnce(answer ? answer.asWindow() : null);
  open.mockReturnValue(null);
  undo.push(() => open.mockRestore());
  return open;
}

/** A model at "How would you like to pay?" with PayByAccount offered, and its bank window. */
async function atChoosing(initiation: () => Promise<{ token: string; payment: PaymentView }>) {
  const companion = new FakeCompanion();
  companion.answerSession = async () =>
    sessionView({ channels: channels('PayByAccount', 'PayByTransfer') });
  companion.answerInitiate = initiation;
  const model = createCheckoutModel({
    companion,
    clock: new FakeClock(),
    target: TARGET,
    supportedChannels: ['PayByTransfer', 'PayByAccount'],
  });
  // As open() builds it: what the page needs to pick the payment up after a full-page redirect.
  const redirect = vi.fn((payment: PaymentView) => {
    const token = model.paymentToken();
    return token ? { endpoint: '/api/checkout', target: TARGET, token, payment } : null;
  });
  const bank: BankWindow = createBankWindow(model, redirect);
  undo.push(() => {
    bank.dispose();
    model.dispose();
  });
  await model.start();
  expect(model.step.peek().kind).toBe('choosing');
  return { companion, model, bank, redirect };
}

/** The customer's click on "Pay from your bank", as the dialog handles it. */
async function chooseBank(bank: BankWindow, model: CheckoutModel) {
  bank.prepare();
  model.choose('PayByAccount');
  await settle();
}

function phaseOf(model: CheckoutModel): string {
  const step = model.step.peek();
  return step.kind === 'paying' && step.channel === 'PayByAccount'
    ? `bank:${step.phase}`
    : step.kind;
}

describe('opening the bank’s window', () => {
  it('prepare() opens a blank window at once, in the click, before the payment exists', async () => {
    const popup = new FakePopup();
    const open = stubOpen(popup);
    const initiation = deferred<{ token: string; payment: PaymentView }>();
    const { model, bank } = await atChoosing(() => initiation.promise);

    bank.prepare();
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(
      'about:blank',
      'paydrop-bank',
      expect.stringMatching(/popup/),
    );
    model.choose('PayByAccount');
    await settle();
    // Still waiting for the companion: the window stays, blank.
    expect(phaseOf(model)).toBe('starting');
    expect(popup.closed).toBe(false);
    expect(popup.navigations).toEqual([]);
  });

  it('sends the prepared window to the AuthUrl, cut off from this page, then says it is open', async () => {
    const popup = new FakePopup();
    const open = stubOpen(popup);
    const initiation = deferred<{ token: string; payment: PaymentView }>();
    const { model, bank } = await atChoosing(() => initiation.promise);
    const opened = vi.spyOn(model, 'bankOpened');
    await chooseBank(bank, model);

    initiation.resolve({ token: 'payment-token', payment: bankPayment() });
    await settle();
    // opener was already null when the bank's page was loaded into the window.
    expect(popup.navigations).toEqual([{ url: AUTH_URL, opener: null }]);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(phaseOf(model)).toBe('bank:opened');
    expect(open).toHaveBeenCalledTimes(1);

    bank.focus();
    expect(popup.focused).toBe(1);
  });

  for (const unsafe of [
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'http://bank.example/authorise',
    'not a url',
  ]) {
    it(`never sends a window to ${unsafe}`, async () => {
      const popup = new FakePopup();
      const open = stubOpen(popup, new FakePopup());
      const assign = vi.fn();
      vi.stubGlobal('location', { assign, href: 'https://shop.example/checkout' });
      const payment = bankPayment({ bankAuthUrl: unsafe });
      const { model, bank, redirect } = await atChoosing(async () => ({
        token: 'payment-token',
        payment,
      }));
      await chooseBank(bank, model);
      expect(popup.navigations).toEqual([]);
      expect(phaseOf(model)).toBe('bank:ready');

      // Nor does "Continue to your bank" open, redirect or save anything for it.
      bank.continueToBank(payment);
      expect(open).toHaveBeenCalledTimes(1);
      expect(redirect).not.toHaveBeenCalled();
      expect(loadReturnChunk).not.toHaveBeenCalled();
      await settle();
      expect(assign).not.toHaveBeenCalled();
      expect(sessionStorage.getItem(REDIRECT_KEY)).toBeNull();
    });
  }

  it('closes the blank window when the payment does not start', async () => {
    const popup = new FakePopup();
    stubOpen(popup);
    const { model, bank } = await atChoosing(async () => {
      throw new CompanionFailure('unavailable', 'down');
    });
    await chooseBank(bank, model);
    expect(phaseOf(model)).toBe('error');
    expect(popup.closed).toBe(true);
    expect(popup.navigations).toEqual([]);
  });

  it('"Continue to your bank" after the window closed opens a new one and sends it there', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const first = new FakePopup();
    const second = new FakePopup();
    const open = stubOpen(first, second);
    const payment = bankPayment();
    const { model, bank } = await atChoosing(async () => ({ token: 'payment-token', payment }));
    await chooseBank(bank, model);
    first.closed = true;
    await vi.advanceTimersByTimeAsync(500);
    await settle();
    expect(phaseOf(model)).toBe('bank:closed');

    bank.continueToBank(payment);
    expect(open).toHaveBeenCalledTimes(2);
    expect(second.navigations).toEqual([{ url: AUTH_URL, opener: null }]);
    expect(phaseOf(model)).toBe('bank:opened');
  });
});

describe('a blocked window', () => {
  it('once blocked, Continue tries no second window: it saves the payment for the return and goes by redirect', async () => {
    const open = stubOpen(null);
    const assign = vi.fn();
    vi.stubGlobal('location', { assign, href: 'https://shop.example/checkout' });
    const payment = bankPayment();
    const { model, bank, redirect } = await atChoosing(async () => ({
      token: 'payment-token',
      payment,
    }));
    await chooseBank(bank, model);
    // Nothing to send to the bank: the customer continues with a click.
    expect(phaseOf(model)).toBe('bank:ready');
    expect(loadReturnChunk).not.toHaveBeenCalled();

    bank.continueToBank(payment);
    // Not a second try at a window the browser already refused.
    expect(open).toHaveBeenCalledTimes(1);
    expect(redirect).toHaveBeenCalledWith(payment);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(assign).toHaveBeenCalledWith(AUTH_URL);
    // Saved before leaving: what the merchant's page needs to pick the payment up on its return.
    expect(JSON.parse(sessionStorage.getItem(REDIRECT_KEY) ?? 'null')).toEqual({
      endpoint: '/api/checkout',
      target: TARGET,
      token: 'payment-token',
      payment,
    });
  });

  it('still goes to the bank when the redirect chunk cannot be loaded', async () => {
    stubOpen(null);
    const assign = vi.fn();
    vi.stubGlobal('location', { assign, href: 'https://shop.example/checkout' });
    const payment = bankPayment();
    const { model, bank } = await atChoosing(async () => ({ token: 'payment-token', payment }));
    await chooseBank(bank, model);
    vi.mocked(loadReturnChunk).mockRejectedValueOnce(new Error('offline'));
    bank.continueToBank(payment);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(AUTH_URL));
    // Nothing saved: opening the order again on the way back picks the payment up.
    expect(sessionStorage.getItem(REDIRECT_KEY)).toBeNull();
  });
});

describe('the bank’s return', () => {
  async function atTheBank() {
    stubOpen(new FakePopup());
    const context = await atChoosing(async () => ({
      token: 'payment-token',
      payment: bankPayment(),
    }));
    await chooseBank(context.bank, context.model);
    expect(phaseOf(context.model)).toBe('bank:opened');
    const returned = vi.spyOn(context.model, 'bankReturned');
    return { ...context, returned };
  }

  it('is heard on BroadcastChannel "paydrop", and only in the return page’s shape', async () => {
    const { model, companion, returned } = await atTheBank();
    const page = new BroadcastChannel('paydrop');
    undo.push(() => page.close());
    // Delivered in order: by the time the real one is heard, the others were ignored.
    page.postMessage({ type: 'paydrop:challenge-completed', reference: 'ref_0001' });
    page.postMessage({ type: RETURN, reference: 42 });
    page.postMessage('paydrop:bank-return ref_0001');
    page.postMessage({ type: RETURN, reference: 'ref_0001', at: Date.now() });
    await vi.waitFor(() => expect(returned).toHaveBeenCalled());
    expect(returned.mock.calls).toEqual([['ref_0001']]);
    expect(phaseOf(model)).toBe('bank:processing');
    expect(argsOf(companion.statuses)).toContain('payment-token');
  });
});

describe('the bank’s return for another payment', () => {
  it('changes nothing here (another tab’s checkout hears it too)', async () => {
    stubOpen(new FakePopup());
    const { model, bank, companion } = await atChoosing(async () => ({
      token: 'payment-token',
      payment: bankPayment(),
    }));
    await chooseBank(bank, model);
    const returned = vi.spyOn(model, 'bankReturned');
    const checksBefore = companion.statuses.length;
    const page = new BroadcastChannel('paydrop');
    undo.push(() => page.close());
    page.postMessage({ type: RETURN, reference: 'ref_another_tab' });
    await vi.waitFor(() => expect(returned).toHaveBeenCalledWith('ref_another_tab'));
    expect(phaseOf(model)).toBe('bank:opened');
    expect(companion.statuses.length).toBe(checksBefore);
  });
});

describe('watching the window', () => {
  it('notices the window closing and asks the model, which checks the status first', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const popup = new FakePopup();
    stubOpen(popup);
    const { model, bank, companion } = await atChoosing(async () => ({
      token: 'payment-token',
      payment: bankPayment(),
    }));
    const closed = vi.spyOn(model, 'bankWindowClosed');
    await chooseBank(bank, model);

    await vi.advanceTimersByTimeAsync(5_000);
    expect(closed).not.toHaveBeenCalled();

    popup.closed = true;
    const checksBefore = companion.statuses.length;
    await vi.advanceTimersByTimeAsync(500);
    await settle();
    expect(closed).toHaveBeenCalledTimes(1);
    expect(companion.statuses.length).toBe(checksBefore + 1);
    expect(phaseOf(model)).toBe('bank:closed');

    // Noticed once: the watch stops with the window.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('a window closed after the bank approved ends in success, not "closed"', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const popup = new FakePopup();
    stubOpen(popup);
    const { model, bank, companion } = await atChoosing(async () => ({
      token: 'payment-token',
      payment: bankPayment(),
    }));
    await chooseBank(bank, model);
    companion.answerStatus = async () => ({ status: 'SUCCESSFUL', serverTime: null });
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(500);
    await settle();
    expect(phaseOf(model)).toBe('succeeded');
  });
});

describe('dispose', () => {
  it('closes a blank window never sent anywhere, and stops following the model', async () => {
    const popup = new FakePopup();
    stubOpen(popup);
    const initiation = deferred<{ token: string; payment: PaymentView }>();
    const { model, bank } = await atChoosing(() => initiation.promise);
    const created: string[] = [];
    vi.stubGlobal(
      'BroadcastChannel',
      class extends BroadcastChannel {
        constructor(name: string) {
          super(name);
          created.push(name);
        }
      },
    );
    bank.prepare();
    model.choose('PayByAccount');
    await settle();
    expect(popup.closed).toBe(false);

    bank.dispose();
    expect(popup.closed).toBe(true);
    initiation.resolve({ token: 'payment-token', payment: bankPayment() });
    await settle();
    expect(phaseOf(model)).toBe('bank:ready');
    // Reaching the bank step after dispose starts no listening.
    expect(created).toEqual([]);
    expect(popup.navigations).toEqual([]);
  });

  it('after the bank step, closes the channel and no longer hears the bank’s return', async () => {
    const close = vi.spyOn(BroadcastChannel.prototype, 'close');
    undo.push(() => close.mockRestore());
    stubOpen(new FakePopup());
    const { model, bank } = await atChoosing(async () => ({
      token: 'payment-token',
      payment: bankPayment(),
    }));
    await chooseBank(bank, model);
    const returned = vi.spyOn(model, 'bankReturned');

    bank.dispose();
    expect(close).toHaveBeenCalledTimes(1);

    // A second listener on the channel proves the message was sent and delivered.
    const page = new BroadcastChannel('paydrop');
    const probe = new BroadcastChannel('paydrop');
    undo.push(() => {
      page.close();
      probe.close();
    });
    const delivered = new Promise((resolve) => {
      probe.onmessage = resolve;
    });
    page.postMessage({ type: RETURN, reference: 'ref_0001' });
    await delivered;
    await settle();
    expect(returned).not.toHaveBeenCalled();
    expect(phaseOf(model)).toBe('bank:opened');
  });
});
