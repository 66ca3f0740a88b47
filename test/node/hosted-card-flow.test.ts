// The hosted card page from the widget's side (src/widget/channels/card/hosted-card-flow.ts), on a
// fake clock with a fake companion and a fake window: the page opened in the choosing click, a
// blocked window, a payment heard of by the return page, by the closed window or by the poll, a
// cancel, and an earlier payment of the order shown instead of a second page.
import { describe, expect, it } from 'vitest';
import { CompanionFailure, type PaymentView } from '../../src/flow/companion';
import {
  type CardWindow,
  createHostedCardFlow,
} from '../../src/widget/channels/card/hosted-card-flow';
import { FakeClock } from '../helpers/fake-clock';

const PAGE_URL = 'http://127.0.0.1:4010/pages/link/abc123';

function payment(reference: string): PaymentView {
  return {
    reference,
    channel: 'Card',
    status: 'PENDING',
    amount: { amountMinor: 1800, currency: 'USD' },
    fees: { amountMinor: 0, currency: 'USD' },
    virtualAccount: null,
    bankAuthUrl: null,
    serverTime: 0,
  };
}

function fakeWindow() {
  const win = {
    closed: false,
    opener: {} as unknown,
    visited: [] as string[],
    location: { replace: (url: string) => win.visited.push(url) },
    close() {
      win.closed = true;
    },
    focus() {},
  };
  return win satisfies CardWindow;
}

function rig(answers: { page?: () => unknown } = {}) {
  const clock = new FakeClock(0);
  const calls: Array<{ path: string; token: string; body?: unknown }> = [];
  let pagePayment: unknown = { payment: null, token: null, cancelled: false };
  const found: Array<{ reference: string; token: string }> = [];
  const failed: unknown[] = [];
  const flow = createHostedCardFlow({
    companion: {
      post: async (path, token, body) => {
        calls.push({ path, token, body });
        if (path === '/card-page') {
          return answers.page
            ? answers.page()
            : { url: PAGE_URL, token: 'page-token', alias: 'abc123' };
        }
        return pagePayment;
      },
    },
    clock: clock.asNowClock(),
    sessionToken: 'session-token',
    found: (view, token) => found.push({ reference: view.reference, token }),
    failed: (error) => failed.push(error),
  });
  return {
    flow,
    clock,
    calls,
    found,
    failed,
    setPagePayment(value: unknown) {
      pagePayment = value;
    },
    asked: () => calls.filter((call) => call.path === '/card-page/payment').length,
  };
}

describe('card on the hosted page, in the widget', () => {
  it('sends the window opened in the click to the page, cut off from this one', async () => {
    const { flow, calls } = rig();
    const win = fakeWindow();
    await flow.start(win, 'https://shop.example/checkout');
    expect(calls[0]).toEqual({
      path: '/card-page',
      token: 'session-token',
      body: { returnTo: 'https://shop.example/checkout' },
    });
    expect(win.visited).toEqual([PAGE_URL]);
    expect(win.opener).toBeNull();
    expect(flow.state.value).toEqual({ kind: 'opened' });
  });

  it('offers to continue when the browser refused a window, and opens it in that click', async () => {
    const { flow } = rig();
    await flow.start(null);
    expect(flow.state.value).toEqual({ kind: 'blocked', url: PAGE_URL });
    const win = fakeWindow();
    expect(flow.reopen(win)).toBe(true);
    expect(win.visited).toEqual([PAGE_URL]);
    expect(flow.state.value.kind).toBe('opened');
  });

  it('follows the payment the return page tells of', async () => {
    const test = rig();
    await test.flow.start(fakeWindow());
    test.setPagePayment({ payment: payment('ref-1'), token: 'pay-token', cancelled: false });
    test.flow.returned();
    await test.clock.advance(0);
    expect(test.found).toEqual([{ reference: 'ref-1', token: 'pay-token' }]);
  });

  it('asks the companion every 2 s for a minute, then every 10 s, and stops at the payment', async () => {
    const test = rig();
    await test.flow.start(fakeWindow());
    await test.clock.advance(60_000);
    const inFirstMinute = test.asked();
    expect(inFirstMinute).toBeGreaterThanOrEqual(29);
    expect(inFirstMinute).toBeLessThanOrEqual(30);
    await test.clock.advance(60_000);
    expect(test.asked() - inFirstMinute).toBeGreaterThanOrEqual(5);
    expect(test.asked() - inFirstMinute).toBeLessThanOrEqual(7);
    test.setPagePayment({ payment: payment('ref-2'), token: 'pay-token', cancelled: false });
    await test.clock.advance(10_000);
    expect(test.found.map((entry) => entry.reference)).toEqual(['ref-2']);
    const after = test.asked();
    await test.clock.advance(120_000);
    expect(test.asked()).toBe(after);
  });

  it('says the page was closed when the window closes with no payment, and offers it again', async () => {
    const test = rig();
    const win = fakeWindow();
    await test.flow.start(win);
    win.closed = true;
    await test.clock.advance(500);
    expect(test.flow.state.value).toEqual({ kind: 'closed', cancelled: false });
    expect(test.found).toEqual([]);
    const again = fakeWindow();
    await test.flow.start(again);
    expect(again.visited).toEqual([PAGE_URL]);
    expect(test.flow.state.value.kind).toBe('opened');
  });

  it('follows a payment the closed window hides, rather than saying it was closed', async () => {
    const test = rig();
    const win = fakeWindow();
    await test.flow.start(win);
    test.setPagePayment({ payment: payment('ref-3'), token: 'pay-token', cancelled: false });
    win.closed = true;
    await test.clock.advance(500);
    expect(test.found.map((entry) => entry.reference)).toEqual(['ref-3']);
  });

  it('hears a cancel on the page and closes its window', async () => {
    const test = rig();
    const win = fakeWindow();
    await test.flow.start(win);
    test.setPagePayment({ payment: null, token: null, cancelled: true });
    test.flow.returned();
    await test.clock.advance(0);
    expect(test.flow.state.value).toEqual({ kind: 'closed', cancelled: true });
    expect(win.closed).toBe(true);
  });

  it('shows an earlier payment of the order instead of a second page', async () => {
    const test = rig({
      page: () => {
        throw new CompanionFailure('payment_pending', 'earlier', null, {
          payment: payment('ref-0'),
          token: 'earlier-token',
        });
      },
    });
    const win = fakeWindow();
    await test.flow.start(win);
    expect(test.found).toEqual([{ reference: 'ref-0', token: 'earlier-token' }]);
    expect(win.closed).toBe(true);
    expect(win.visited).toEqual([]);
  });

  it('refuses a page URL that is not https (or loopback http), and never opens it', async () => {
    const test = rig({ page: () => ({ url: 'javascript:alert(1)', token: 't', alias: 'abc123' }) });
    const win = fakeWindow();
    await test.flow.start(win);
    expect(test.failed).toHaveLength(1);
    expect((test.failed[0] as CompanionFailure).code).toBe('bad_response');
    expect(win.visited).toEqual([]);
    expect(win.closed).toBe(true);
  });

  it('does nothing more once disposed, and leaves the provider’s page open', async () => {
    const test = rig();
    const win = fakeWindow();
    await test.flow.start(win);
    test.flow.dispose();
    const asked = test.asked();
    await test.clock.advance(30_000);
    expect(test.asked()).toBe(asked);
    expect(win.closed).toBe(false);
  });
});
