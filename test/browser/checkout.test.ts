// @vitest-environment jsdom
// The dialog over the real checkout model, driven by a fake companion and a fake clock: what the
// customer sees and hears at each step, and what the merchant's page is told when it closes.

import { act, cleanup, fireEvent, screen, within } from '@testing-library/preact';
import { options } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CompanionFailure, type CompanionFailureCode } from '../../src/flow/companion';
import { en } from '../../src/widget/messages/en';
import { outcomeMessagesEn } from '../../src/widget/outcomes/messages';
import { deferred } from '../helpers/deferred';
import { FakeClock } from '../helpers/fake-clock';
import { argsOf, FakeCompanion, type Initiation } from '../helpers/fake-companion';
import {
  channels,
  paymentView,
  SERVER_NOW,
  sessionView,
  virtualAccount,
} from '../helpers/fake-companion-answers';
import { axeViolations } from './axe';
import { andRedraw, dialog, liveRegion, renderCheckout } from './checkout-harness';
import { settle, stubClipboard } from './setup-dom';

const SUMMARY = {
  reference: 'ref_0001',
  channel: 'PayByTransfer',
  amount: { amountMinor: 2_500_050, currency: 'NGN' },
};

function heading(name: string | RegExp): HTMLElement {
  return screen.getByRole('heading', { name });
}

describe('opening', () => {
  it('says it is getting ready, then names the dialog after the order', async () => {
    const companion = new FakeCompanion();
    const session = deferred<ReturnType<typeof sessionView>>();
    companion.answerSession = () => session.promise;
    await renderCheckout({ companion });

    expect(screen.getAllByRole('dialog', { name: 'Checkout' })).toHaveLength(1);
    const loading = screen.getByText('Loading…');
    expect(document.activeElement).toBe(loading);
    expect(dialog().open).toBe(true);

    await andRedraw(() => session.resolve(sessionView()));
    // Named for the checkout and the merchant's description (issue 12).
    expect(
      screen.getAllByRole('dialog', { name: 'Checkout Order 1042 — Amina Stores' }),
    ).toHaveLength(1);
    expect(screen.queryByText('Loading…')).toBeNull();
    // The amount, in the header, once (issue 23).
    expect(screen.getAllByText('₦25,000.50', { selector: '.total' })).toHaveLength(1);
    expect(argsOf(companion.sessions)).toEqual([{ order: 'order_1042' }]);
  });

  it('with a single channel goes straight to the transfer panel, no choice asked', async () => {
    const companion = new FakeCompanion();
    const initiation = deferred<Initiation>();
    companion.answerInitiate = () => initiation.promise;
    await renderCheckout({ companion });

    expect(screen.getAllByText('Setting up your payment…')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Bank transfer' })).toBeNull();
    expect(argsOf(companion.initiations)).toEqual([
      { token: 'session-token', request: { channel: 'PayByTransfer', customer: undefined } },
    ]);

    await andRedraw(() => initiation.resolve({ token: 'payment-token', payment: paymentView() }));
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
    expect(screen.queryByText('How would you like to pay?')).toBeNull();
  });
});

describe('choosing a channel', () => {
  async function withTwoChannels() {
    const companion = new FakeCompanion();
    companion.answerSession = async () =>
      sessionView({
        channels: [
          { name: 'PayByAccount', description: 'Approve in your banking app' },
          { name: 'PayByTransfer', description: null },
        ],
      });
    const view = await renderCheckout({
      companion,
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    return {
      ...view,
      fromBank: screen.getByRole('button', { name: /^Pay from your bank/ }),
      transfer: screen.getByRole('button', { name: 'Bank transfer' }),
    };
  }

  it('offers one button per channel under "How would you like to pay?", starting none', async () => {
    const { fromBank, transfer, companion } = await withTwoChannels();
    const choices = screen
      .getAllByRole('button')
      .filter((button) => button === fromBank || button === transfer);
    expect(choices).toEqual([fromBank, transfer]);
    // The widget's own words in the customer's language, not the provider's (issue 12).
    expect(within(fromBank).getAllByText('Approve it in your banking app.')).toHaveLength(1);
    // The heading takes focus and is read out; the live region does not say it twice.
    expect(document.activeElement).toBe(heading('How would you like to pay?'));
    expect(liveRegion().textContent).toBe('');
    expect(companion.initiations).toEqual([]);
  });

  it('a click on a channel starts that channel, and only it', async () => {
    const { transfer, companion } = await withTwoChannels();
    await andRedraw(() => fireEvent.click(transfer));
    expect(companion.initiations.map((call) => call.args.request.channel)).toEqual([
      'PayByTransfer',
    ]);
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
  });

  it('"Pay from your bank" opens the bank’s window in that very click, before the payment exists', async () => {
    const { fromBank, companion, openWindow } = await withTwoChannels();
    const initiation = deferred<Initiation>();
    companion.answerInitiate = () => initiation.promise;
    fireEvent.click(fromBank);
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(openWindow.mock.calls[0]?.[0]).toBe('about:blank');
    expect(companion.initiations.map((call) => call.args.request.channel)).toEqual([
      'PayByAccount',
    ]);
    await andRedraw(() => initiation.reject(new CompanionFailure('network', 'offline')));
  });
});

/** The value next to a term: the first part of its definition (the Copy button follows it). */
function shownValue(term: HTMLElement): string | null | undefined {
  return term.nextElementSibling?.firstElementChild?.textContent;
}

describe('the transfer panel', () => {
  it('shows the amount, the account number grouped, the bank and the account name', async () => {
    await renderCheckout();
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
    const row = (label: string) => shownValue(screen.getByText(label, { selector: 'dt' }));
    expect(row('Amount')).toBe('₦25,000.50');
    expect(row('Account number')).toBe('012 345 6789');
    expect(row('Bank')).toBe('Wema Bank');
    expect(row('Account name')).toBe('Paydrop / Amina Stores');
    expect(screen.queryByText(/in fees/)).toBeNull();
    for (const what of ['Amount', 'Account number', 'Bank', 'Account name']) {
      expect(screen.getAllByRole('button', { name: `Copy ${what}` })).toHaveLength(1);
    }
  });

  it('adds the fees to the amount to transfer and says how much they are', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ fees: { amountMinor: 5_000, currency: 'NGN' } }),
    });
    await renderCheckout({ companion });
    expect(document.activeElement).toBe(heading('Transfer to this account'));
    expect(screen.getAllByText('Includes ₦50.00 in fees.')).toHaveLength(1);
    expect(shownValue(screen.getByText('Amount'))).toBe('₦25,050.50');
  });

  it('counts down to the expiry in a timer that ticks with the clock', async () => {
    const { clock } = await renderCheckout();
    const timer = screen.getByRole('timer');
    expect(timer.textContent).toBe('30:00');
    expect(timer.parentElement?.textContent).toBe('This account expires in 30:00');

    await andRedraw(() => clock.advance(1_000));
    expect(screen.getByRole('timer').textContent).toBe('29:59');
    await andRedraw(() => clock.advance(60_000));
    expect(screen.getByRole('timer').textContent).toBe('28:59');
  });

  it("the countdown's tick updates its own text and redraws no component (signals)", async () => {
    const { clock } = await renderCheckout();
    const timer = screen.getByRole('timer');
    const text = timer.firstChild;
    const heading = document.activeElement;
    // Every component Preact redraws passes through options.diffed; a signal bound to a text
    // node updates that node without any.
    const redrawn: string[] = [];
    const previous = options.diffed;
    options.diffed = (vnode) => {
      if (typeof vnode.type === 'function') redrawn.push(vnode.type.name);
      previous?.(vnode);
    };
    try {
      await andRedraw(() => clock.advance(10_000));
    } finally {
      if (previous) options.diffed = previous;
      else delete options.diffed;
    }
    expect(timer.textContent).toBe('29:50');
    expect(timer.firstChild).toBe(text);
    expect(screen.getByRole('timer')).toBe(timer);
    expect(document.activeElement).toBe(heading);
    expect(redrawn).toEqual([]);
  });

  it('counts on the server clock: an answer written 2 minutes before expiry shows 2:00', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ serverTime: SERVER_NOW + 28 * 60_000 }),
    });
    await renderCheckout({ companion });
    expect(screen.getByRole('timer').textContent).toBe('2:00');
  });

  it('"I\'ve sent the money" shows that the transfer is being confirmed, never success on its own', async () => {
    const { companion, clock } = await renderCheckout();
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: "I've sent the money" })),
    );
    expect(screen.getAllByText('Confirming your transfer')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: "I've sent the money" })).toBeNull();
    expect(argsOf(companion.statuses)).toEqual(['payment-token']);
    expect(document.activeElement?.textContent).toBe('Confirming your transfer');

    await andRedraw(() => clock.advance(20_000));
    expect(screen.queryByText('Payment received')).toBeNull();
    expect(screen.getAllByText('Confirming your transfer')).toHaveLength(1);
    expect(screen.getByRole('timer').textContent).toBe('29:40');
  });
});

describe('the outcome', () => {
  it('a pushed SUCCESSFUL shows "Payment received", says so in the live region, and Done reports it', async () => {
    const { companion, clock, onDone } = await renderCheckout();
    await andRedraw(() => companion.push('SUCCESSFUL'));

    const title = heading('Payment received');
    expect(document.activeElement).toBe(title);
    expect(liveRegion().textContent).toBe('');
    expect(screen.getAllByText('Thank you! Your payment of ₦25,000.50 is confirmed.')).toHaveLength(
      1,
    );
    expect(screen.queryByRole('timer')).toBeNull();
    expect(companion.active.length).toBe(0);
    expect(clock.pending).toBe(0);
    expect(onDone).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onDone).toHaveBeenCalledWith({ status: 'succeeded', payment: SUMMARY });
  });

  it('a success found by polling shows "Payment received" too', async () => {
    const { companion, clock } = await renderCheckout();
    companion.answerStatus = async () => ({ status: 'SUCCESSFUL', serverTime: null });
    await andRedraw(() => clock.advance(2_000));
    expect(screen.getAllByRole('heading', { name: 'Payment received' })).toHaveLength(1);
  });

  it('a success pushed after the 10-minute warning takes the warning out of the live region', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({
        virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 10 * 60_000 + 2_000 }),
      }),
    });
    const { clock } = await renderCheckout({ companion });
    await andRedraw(() => clock.advance(3_000));
    expect(liveRegion().textContent).toBe('10 minutes left to transfer.');

    await andRedraw(() => companion.push('SUCCESSFUL'));
    expect(document.activeElement).toBe(heading('Payment received'));
    expect(liveRegion().textContent).toBe('');
  });

  it('"I\'ve sent the money" after the 10-minute warning moves on to confirming, warning gone', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({
        virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 10 * 60_000 + 2_000 }),
      }),
    });
    const { clock } = await renderCheckout({ companion });
    await andRedraw(() => clock.advance(3_000));
    expect(liveRegion().textContent).toBe('10 minutes left to transfer.');

    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: "I've sent the money" })),
    );
    expect(document.activeElement?.textContent).toBe('Confirming your transfer');
    expect(liveRegion().textContent).toBe('');
  });

  it('a pushed FAILED shows "Payment not completed" with Try again, which starts over', async () => {
    const { companion, onDone } = await renderCheckout();
    await andRedraw(() => companion.push('FAILED'));
    // Its words arrive with the outcomes chunk; focus then moves to its heading.
    expect(await screen.findAllByText(outcomeMessagesEn.failedText)).toHaveLength(1);
    expect(document.activeElement).toBe(heading('Payment not completed'));
    expect(liveRegion().textContent).toBe('');

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(companion.sessions).toHaveLength(2);
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('Close after a failure reports the failure', async () => {
    const { companion, onDone } = await renderCheckout();
    await andRedraw(() => companion.push('FAILED'));
    fireEvent.click(
      within(screen.getByRole('dialog')).getAllByRole('button', {
        name: 'Close',
      })[1] as HTMLElement,
    );
    expect(onDone).toHaveBeenCalledWith({
      status: 'failed',
      error: {
        code: 'payment_failed',
        message: 'The payment did not go through (payment_failed).',
      },
      payment: SUMMARY,
    });
  });

  it('at expiry says the account has expired, and "Get a new account" brings a fresh one', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 5_000 }) }),
    });
    const { clock } = await renderCheckout({ companion });
    expect(screen.getByRole('timer').textContent).toBe('0:05');
    const checksBefore = companion.statuses.length;

    await andRedraw(() => clock.advance(5_000));
    expect(document.activeElement).toBe(heading('This account has expired'));
    expect(liveRegion().textContent).toBe('');
    expect(screen.queryByText('012 345 6789')).toBeNull();
    expect(companion.statuses.length).toBeGreaterThan(checksBefore);
    expect(clock.pending).toBe(0);

    companion.answerInitiate = async () => ({
      token: 'payment-token-2',
      payment: paymentView({
        reference: 'ref_0002',
        virtualAccount: virtualAccount({ accountNumber: '9876543210' }),
      }),
    });
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Get a new account' })),
    );
    expect(companion.initiations).toHaveLength(2);
    expect(screen.getAllByText('987 654 3210')).toHaveLength(1);
    expect(screen.getByRole('timer').textContent).toBe('30:00');
  });

  it('at expiry a payment that arrived at the last second is received, not expired', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 1_000 }) }),
    });
    const { clock } = await renderCheckout({ companion });
    companion.answerStatus = async () => ({ status: 'SUCCESSFUL', serverTime: null });
    await andRedraw(() => clock.advance(1_000));
    expect(screen.getAllByRole('heading', { name: 'Payment received' })).toHaveLength(1);
    expect(screen.queryByText('This account has expired')).toBeNull();
  });
});

describe('errors', () => {
  const cases: Array<[CompanionFailureCode, string, boolean]> = [
    [
      'network',
      'We lost the connection to the checkout. Nothing was charged. Check your connection and try again.',
      true,
    ],
    [
      'timeout',
      'We lost the connection to the checkout. Nothing was charged. Check your connection and try again.',
      true,
    ],
    ['unavailable', 'Payments are unavailable right now. Please try again in a moment.', true],
    ['rate_limited', 'Payments are unavailable right now. Please try again in a moment.', true],
    [
      'order_not_found',
      'This order cannot be paid. It may have been paid already or cancelled.',
      false,
    ],
    ['bad_response', 'The checkout could not continue. Please try again.', true],
    ['internal', 'The checkout could not continue. Please try again.', true],
    ['unauthorized', 'The checkout could not continue. Please try again.', true],
  ];

  for (const [code, text, canRetry] of cases) {
    it(`a session refused with ${code} says "${text}"${canRetry ? ' with Try again' : ', no retry'}`, async () => {
      const companion = new FakeCompanion();
      companion.answerSession = async () => {
        throw new CompanionFailure(code, `raw ${code} message`);
      };
      await renderCheckout({ companion });
      expect(document.activeElement).toBe(heading('Something went wrong'));
      expect(screen.getAllByText(text)).toHaveLength(1);
      expect(liveRegion().textContent).toBe(text);
      expect(screen.queryByText(`raw ${code} message`)).toBeNull();
      const retry = screen.queryByRole('button', { name: 'Try again' });
      expect(retry !== null).toBe(canRetry);
      if (!retry) return;

      companion.answerSession = async () => sessionView();
      await andRedraw(() => fireEvent.click(retry));
      expect(companion.sessions).toHaveLength(2);
      expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
    });
  }

  it('an order with no channel this widget supports says so, with no retry', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = async () => sessionView({ channels: channels('Card') });
    await renderCheckout({ companion });
    expect(screen.getAllByText('No payment method is available for this order.')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(companion.initiations).toEqual([]);
  });

  it('a failed initiation retries the initiation, not the session', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => {
      throw new CompanionFailure('unavailable', 'down');
    };
    await renderCheckout({ companion });
    expect(
      screen.getAllByText('Payments are unavailable right now. Please try again in a moment.'),
    ).toHaveLength(1);

    companion.answerInitiate = async () => ({ token: 'payment-token', payment: paymentView() });
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(companion.sessions).toHaveLength(1);
    expect(companion.initiations).toHaveLength(2);
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
  });

  it('a payment refused by the companion’s limits (429) says come back later, with the other ways (issue 20)', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = async () =>
      sessionView({ channels: channels('PayByTransfer', 'PayByAccount') });
    companion.answerInitiate = async () => {
      throw new CompanionFailure('rate_limited', 'Too many card attempts for this payment');
    };
    await renderCheckout({ companion, supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: /^Bank transfer/ })));
    // The outcome screens' words come in a chunk of their own: found once it has loaded.
    expect(document.activeElement).toBe(
      await screen.findByRole('heading', { name: 'Too many attempts' }),
    );
    expect(screen.getAllByText(outcomeMessagesEn.tooManyAttemptsText)).toHaveLength(1);
    expect(screen.queryByText(/Too many card attempts for this payment/)).toBeNull();
    companion.answerInitiate = async () => ({ token: 'payment-token', payment: paymentView() });
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: en.otherMethod })));
    expect(screen.getAllByRole('button', { name: /^Pay from your bank/ })).toHaveLength(1);
  });

  it('an unexpected exception becomes the generic text, never its own message', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = async () => {
      throw new TypeError('x is undefined');
    };
    await renderCheckout({ companion });
    expect(screen.getAllByText('The checkout could not continue. Please try again.')).toHaveLength(
      1,
    );
    expect(screen.queryByText(/x is undefined/)).toBeNull();
  });
});

describe('provider strings are text', () => {
  const MARKUP = '<img src=x onerror=alert(1)>';

  it('renders markup in the bank, account name, description and channel text literally', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = async () =>
      sessionView({
        description: MARKUP,
        channels: [
          { name: 'PayByTransfer', description: MARKUP },
          { name: 'PayByAccount', description: null },
        ],
      });
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({
        virtualAccount: virtualAccount({ bank: MARKUP, accountName: `${MARKUP} Ltd` }),
      }),
    });
    const { container } = await renderCheckout({
      companion,
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    expect(screen.getAllByRole('dialog', { name: `Checkout ${MARKUP}` })).toHaveLength(1);
    const transfer = screen.getByRole('button', { name: /^Bank transfer/ });
    // The channel's text is the widget's own; the provider's is never parsed either way.
    expect(within(transfer).queryByText(MARKUP)).toBeNull();
    expect(container.querySelector('img')).toBeNull();

    await andRedraw(() => fireEvent.click(transfer));
    expect(shownValue(screen.getByText('Bank'))).toBe(MARKUP);
    expect(screen.getAllByText(`${MARKUP} Ltd`)).toHaveLength(1);
    expect(container.querySelector('img')).toBeNull();
    expect(document.querySelector('img')).toBeNull();
  });
});

describe('closing', () => {
  it('with a payment under way, Close asks first; Stay goes back to the panel, focus to the control (issue 12)', async () => {
    const { onDone } = await renderCheckout();
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    await andRedraw(() => fireEvent.click(close));
    expect(document.activeElement).toBe(heading('Leave the checkout?'));
    expect(screen.getAllByText(en.leaveText)).toHaveLength(1);
    expect(screen.queryByRole('timer')).toBeNull();
    expect(onDone).not.toHaveBeenCalled();

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Stay' })));
    expect(document.activeElement).toBe(close);
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
    expect(screen.getAllByText('012 345 6789')).toHaveLength(1);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('Leave reports the payment as pending', async () => {
    const { onDone } = await renderCheckout();
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(onDone).toHaveBeenCalledWith({ status: 'pending', payment: SUMMARY });
  });

  it("Escape (the dialog's cancel) asks the same question and keeps the dialog open", async () => {
    const { onDone } = await renderCheckout();
    let proceeded = true;
    await andRedraw(() => {
      proceeded = fireEvent(dialog(), new Event('cancel', { cancelable: true }));
    });
    expect(proceeded).toBe(false);
    expect(screen.getAllByRole('heading', { name: 'Leave the checkout?' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Stay' })).toHaveLength(1);
    expect(onDone).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(onDone).toHaveBeenCalledWith({ status: 'pending', payment: SUMMARY });
  });

  it('with no payment under way, Close ends at once as cancelled', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = () => new Promise(() => {});
    const { onDone } = await renderCheckout({ companion });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onDone).toHaveBeenCalledWith({ status: 'cancelled' });
    expect(screen.queryByText('Leave the checkout?')).toBeNull();
  });

  it('while choosing, Escape ends at once as cancelled', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = async () =>
      sessionView({ channels: channels('PayByTransfer', 'PayByAccount') });
    const { onDone } = await renderCheckout({
      companion,
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    fireEvent(dialog(), new Event('cancel', { cancelable: true }));
    expect(onDone).toHaveBeenCalledWith({ status: 'cancelled' });
  });

  it('after success, Close reports the success without asking', async () => {
    const { companion, onDone } = await renderCheckout();
    await andRedraw(() => companion.push('SUCCESSFUL'));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onDone).toHaveBeenCalledWith({ status: 'succeeded', payment: SUMMARY });
  });
});

describe('focus follows the step', () => {
  it('moves to each new heading: loading, choosing, transfer, leave, back, expired, error', async () => {
    const companion = new FakeCompanion();
    const session = deferred<ReturnType<typeof sessionView>>();
    companion.answerSession = () => session.promise;
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 2_000 }) }),
    });
    const { clock } = await renderCheckout({
      companion,
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    expect(document.activeElement?.textContent).toBe('Loading…');

    await andRedraw(() =>
      session.resolve(sessionView({ channels: channels('PayByTransfer', 'PayByAccount') })),
    );
    expect(document.activeElement).toBe(heading('How would you like to pay?'));

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Bank transfer' })));
    expect(document.activeElement).toBe(heading('Transfer to this account'));

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    expect(document.activeElement).toBe(heading('Leave the checkout?'));

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Stay' })));
    expect(document.activeElement).toBe(heading('Transfer to this account'));

    await andRedraw(() => clock.advance(2_000));
    expect(document.activeElement).toBe(heading('This account has expired'));

    companion.answerInitiate = async () => {
      throw new CompanionFailure('network', 'offline');
    };
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Get a new account' })),
    );
    expect(document.activeElement).toBe(heading('Something went wrong'));
  });
});

describe('the live region', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it('announces a copy, then still announces the countdown warnings that follow', async () => {
    restore = stubClipboard(async () => {});
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({
        virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 10 * 60_000 + 5_000 }),
      }),
    });
    const { clock } = await renderCheckout({ companion });

    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Copy Account number' })),
    );
    expect(liveRegion().textContent).toBe('Account number copied to the clipboard.');

    await andRedraw(() => clock.advance(6_000));
    expect(liveRegion().textContent).toBe('10 minutes left to transfer.');
  });

  it('says "1 minute left" at the last minute', async () => {
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({
        virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 60_000 + 2_000 }),
      }),
    });
    const { clock } = await renderCheckout({ companion });
    await andRedraw(() => clock.advance(1_000));
    expect(liveRegion().textContent).toBe('');
    await andRedraw(() => clock.advance(1_000));
    expect(liveRegion().textContent).toBe('1 minute left to transfer.');
    expect(screen.getByRole('timer').textContent).toBe('1:00');
  });
});

describe('a good guest on a strict page', () => {
  // The transfer panel's own markup is checked in transfer-panel.test.ts.
  it('passes axe and uses no inline style at every other step', async () => {
    const found: string[] = [];
    const check = async (step: string) => {
      for (const violation of await axeViolations(dialog())) found.push(`${step}: ${violation}`);
      if (dialog().querySelector('[style]')) found.push(`${step}: inline style attribute`);
    };
    const companion = new FakeCompanion();
    const session = deferred<ReturnType<typeof sessionView>>();
    companion.answerSession = () => session.promise;
    await renderCheckout({ companion, supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    await check('loading');
    await andRedraw(() =>
      session.resolve(sessionView({ channels: channels('PayByTransfer', 'PayByAccount') })),
    );
    await check('choosing');
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Bank transfer' })));
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    await check('leaving');
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Stay' })));
    await andRedraw(() => companion.push('SUCCESSFUL'));
    await check('succeeded');
    cleanup();

    const failing = await renderCheckout();
    await andRedraw(() => failing.companion.push('FAILED'));
    await check('failed');
    cleanup();

    const expiring = new FakeCompanion();
    expiring.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: virtualAccount({ expiresAt: SERVER_NOW + 1_000 }) }),
    });
    const third = await renderCheckout({ companion: expiring });
    await andRedraw(() => third.clock.advance(1_000));
    await check('expired');
    cleanup();

    const broken = new FakeCompanion();
    broken.answerSession = async () => {
      throw new CompanionFailure('network', 'offline');
    };
    await renderCheckout({ companion: broken });
    await check('error');

    expect(found).toEqual([]);
  });
});

// Keeps the fake clock honest: it is what every countdown test above stands on.
describe('the fake clock', () => {
  it('fires intervals once per period and timeouts once', async () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    clock.setInterval(() => fired.push(`i${clock.monotonic()}`), 1_000);
    clock.setTimeout(() => fired.push(`t${clock.monotonic()}`), 1_500);
    await act(() => clock.advance(3_000));
    expect(fired).toEqual(['i2000', 't2500', 'i3000', 'i4000']);
    await settle();
  });
});

describe('names (issue 12)', () => {
  it('drops the header amount once paid, and the header is no banner landmark', async () => {
    const { companion } = await renderCheckout();
    expect(screen.getAllByText('₦25,000.50', { selector: '.total' })).toHaveLength(1);
    expect(screen.queryByRole('banner')).toBeNull();
    await andRedraw(() => companion.push('SUCCESSFUL'));
    expect(screen.getAllByRole('heading', { name: 'Payment received' })).toHaveLength(1);
    expect(screen.queryByText('₦25,000.50', { selector: '.total' })).toBeNull();
  });
});
