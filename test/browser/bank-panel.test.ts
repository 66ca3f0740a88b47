// @vitest-environment jsdom
// The PayByAccount panel: what each phase says and offers, the QR code for a phone (its chunk
// loaded only when asked for, and not offered on a phone), "Choose another way to pay" only when
// there is another way, and no axe violations.
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { type ComponentChildren, h } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BankPhase } from '../../src/flow/checkout-model';
import { createCheckoutModel } from '../../src/flow/checkout-model';
import type { PaymentView } from '../../src/flow/companion';
import type { BankWindow } from '../../src/widget/channels/bank/bank-window';
import { en } from '../../src/widget/messages/en';
import { drawQr } from '../../src/widget/qr';
import { qrMessagesEn } from '../../src/widget/qr/messages';
import { FakeClock } from '../helpers/fake-clock';
import { FakeCompanion } from '../helpers/fake-companion';
import { channels, paymentView, sessionView } from '../helpers/fake-companion-answers';
import { axeViolations } from './axe';
import { andRedraw, renderCheckout } from './checkout-harness';
import { FakePopup } from './fake-popup';

// The real chunk loader, watched: the QR code is a chunk of its own, loaded when asked for.
vi.mock('#chunks', async (importOriginal) => {
  const chunks = await importOriginal<typeof import('#chunks')>();
  return { ...chunks, loadQrChunk: vi.fn(chunks.loadQrChunk) };
});

const AUTH_URL = 'https://bank.example/authorise/ref_0001?session=Zm9v';

function bankPayment(): PaymentView {
  return paymentView({ channel: 'PayByAccount', virtualAccount: null, bankAuthUrl: AUTH_URL });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * BankPanel and the watched loader from a fresh module graph: the panel keeps the loaded QR chunk
 * for the page's life, and each test here starts from a page that has not loaded it yet.
 */
async function fresh() {
  vi.resetModules();
  const { BankPanel } = await import('../../src/widget/channels/bank/BankPanel');
  const loadQrChunk = vi.mocked((await import('#chunks')).loadQrChunk);
  loadQrChunk.mockClear();
  return { BankPanel, loadQrChunk };
}

async function renderPanel(phase: BankPhase, other: ComponentChildren = null) {
  const { BankPanel, loadQrChunk } = await fresh();
  const model = createCheckoutModel({
    companion: new FakeCompanion(),
    clock: new FakeClock(),
    target: { order: 'order_1042' },
    supportedChannels: ['PayByAccount'],
  });
  const bank = {
    continueToBank: vi.fn<(payment: PaymentView) => void>(),
    focus: vi.fn<() => void>(),
  };
  const payment = bankPayment();
  const view = render(
    h(BankPanel, {
      model,
      payment,
      phase,
      messages: en,
      locale: 'en',
      bank: bank as Partial<BankWindow> as BankWindow,
      other,
    }),
  );
  return { ...view, bank, payment, loadQrChunk };
}

const button = (name: string) => screen.getByRole('button', { name });
const noButton = (name: string) => expect(screen.queryByRole('button', { name })).toBeNull();

describe('each phase', () => {
  it('ready: says to approve at the bank, and "Continue to your bank" continues with this payment', async () => {
    const { bank, payment } = await renderPanel('ready');
    expect(screen.getAllByRole('heading', { name: 'Pay from your bank' })).toHaveLength(1);
    expect(screen.getAllByText(en.bankReadyText)).toHaveLength(1);
    fireEvent.click(button('Continue to your bank'));
    expect(bank.continueToBank).toHaveBeenCalledWith(payment);
    expect(screen.getAllByRole('button', { name: 'Pay on your phone instead' })).toHaveLength(1);
    noButton('Show the bank’s window');
  });

  it('opened: says the bank’s window is open, and "Show the bank’s window" brings it forward', async () => {
    const { bank } = await renderPanel('opened');
    expect(screen.getAllByText(en.bankOpenedText)).toHaveLength(1);
    fireEvent.click(button('Show the bank’s window'));
    expect(bank.focus).toHaveBeenCalledTimes(1);
    noButton('Continue to your bank');
    expect(bank.continueToBank).not.toHaveBeenCalled();
  });

  it('closed: says the window closed and offers "Continue to your bank" again', async () => {
    const { bank, payment } = await renderPanel('closed');
    expect(screen.getAllByText(en.bankClosedText)).toHaveLength(1);
    fireEvent.click(button('Continue to your bank'));
    expect(bank.continueToBank).toHaveBeenCalledWith(payment);
    noButton('Show the bank’s window');
  });

  it('processing: a spinner and "Processing your payment…", nothing to press', async () => {
    const { container } = await renderPanel('processing');
    expect(screen.getAllByText('Processing your payment…')).toHaveLength(1);
    expect(container.querySelector('.spinner')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.queryByText(en.bankReadyText)).toBeNull();
  });

  it('puts what it is given as "other" among its actions', async () => {
    await renderPanel('ready', h('button', { type: 'button' }, 'Choose another way to pay'));
    const actions = button('Continue to your bank').parentElement as HTMLElement;
    expect(
      within(actions).getAllByRole('button', { name: 'Choose another way to pay' }),
    ).toHaveLength(1);
  });

  it('offers no other way while the bank’s window is up: that payment may still be approved', async () => {
    await renderPanel('opened', h('button', { type: 'button' }, 'Choose another way to pay'));
    noButton('Choose another way to pay');
  });

  it('passes axe in every phase', async () => {
    const found: string[] = [];
    for (const phase of ['ready', 'opened', 'closed', 'processing'] as const) {
      const { container, unmount } = await renderPanel(phase);
      for (const violation of await axeViolations(container)) found.push(`${phase}: ${violation}`);
      unmount();
    }
    expect(found).toEqual([]);
  });
});

describe('"Pay on your phone instead"', () => {
  it('loads the QR chunk only when clicked, then shows the AuthUrl as a QR code', async () => {
    const { loadQrChunk, container } = await renderPanel('ready');
    expect(loadQrChunk).not.toHaveBeenCalled();
    expect(container.querySelector('svg')).toBeNull();

    fireEvent.click(button('Pay on your phone instead'));
    const qr = await screen.findByRole('img', { name: qrMessagesEn.qrLabel });
    expect(loadQrChunk).toHaveBeenCalledTimes(1);
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.classList.contains('qr')).toBe(true);
    // The very drawing of the bank's link, so a phone camera opens the same authorisation.
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(drawQr(AUTH_URL).path);
    expect(screen.getAllByText(qrMessagesEn.phoneText)).toHaveLength(1);
    // The button stays where it was, so the keyboard's focus stays on it; pressing it again
    // draws nothing more.
    expect(screen.getAllByRole('button', { name: 'Continue to your bank' })).toHaveLength(1);
    fireEvent.click(button('Pay on your phone instead'));
    expect(screen.getAllByRole('img', { name: qrMessagesEn.qrLabel })).toHaveLength(1);
  });

  it('passes axe with the QR code shown', async () => {
    const { container } = await renderPanel('closed');
    fireEvent.click(button('Pay on your phone instead'));
    await screen.findByRole('img', { name: qrMessagesEn.qrLabel });
    expect(await axeViolations(container)).toEqual([]);
  });

  it('when the chunk cannot be loaded, offers the phone again, and a second click loads it', async () => {
    const { loadQrChunk, container } = await renderPanel('ready');
    loadQrChunk.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    fireEvent.click(button('Pay on your phone instead'));
    const again = await screen.findByRole('button', { name: 'Pay on your phone instead' });
    // Back to the offer, with no code and no spinner left behind.
    expect(container.querySelector('.spinner, svg')).toBeNull();
    fireEvent.click(again);
    expect(await screen.findAllByRole('img', { name: qrMessagesEn.qrLabel })).toHaveLength(1);
    expect(loadQrChunk).toHaveBeenCalledTimes(2);
  });

  it('is not offered on a phone (a coarse pointer), where the bank’s app already is', async () => {
    const matchMedia = vi.fn((query: string) => ({ matches: query === '(pointer: coarse)' }));
    vi.stubGlobal('matchMedia', matchMedia);
    const { loadQrChunk } = await renderPanel('ready');
    expect(matchMedia).toHaveBeenCalledWith('(pointer: coarse)');
    noButton('Pay on your phone instead');
    expect(screen.getAllByRole('button', { name: 'Continue to your bank' })).toHaveLength(1);
    expect(loadQrChunk).not.toHaveBeenCalled();
  });

  it('is offered with a fine pointer (a mouse)', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn(() => ({ matches: false })),
    );
    await renderPanel('closed');
    expect(screen.getAllByRole('button', { name: 'Pay on your phone instead' })).toHaveLength(1);
  });
});

describe('in the checkout', () => {
  function bankCompanion(...names: Parameters<typeof channels>) {
    const companion = new FakeCompanion();
    companion.answerSession = async () => sessionView({ channels: channels(...names) });
    companion.answerInitiate = async () => ({ token: 'payment-token', payment: bankPayment() });
    return companion;
  }

  it('with another channel, offers "Choose another way to pay", which goes back to the choice', async () => {
    await renderCheckout({
      companion: bankCompanion('PayByAccount', 'PayByTransfer'),
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    await andRedraw(() => fireEvent.click(button('Pay from your bank')));
    expect(screen.getAllByRole('button', { name: 'Continue to your bank' })).toHaveLength(1);
    await andRedraw(() => fireEvent.click(button('Choose another way to pay')));
    expect(screen.getAllByRole('heading', { name: 'How would you like to pay?' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Bank transfer' })).toHaveLength(1);
  });

  it('with PayByAccount the only channel, offers no other way', async () => {
    const { companion } = await renderCheckout({
      companion: bankCompanion('PayByAccount'),
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    expect(companion.initiations.map((call) => call.args.request.channel)).toEqual([
      'PayByAccount',
    ]);
    expect(screen.getAllByRole('button', { name: 'Continue to your bank' })).toHaveLength(1);
    noButton('Choose another way to pay');
  });

  it('the window opened in the customer’s click goes to the bank, and the panel says so', async () => {
    const popup = new FakePopup();
    const view = await renderCheckout({
      companion: bankCompanion('PayByAccount', 'PayByTransfer'),
      supportedChannels: ['PayByTransfer', 'PayByAccount'],
    });
    view.openWindow.mockReturnValue(popup.asWindow());
    await andRedraw(() => fireEvent.click(button('Pay from your bank')));
    expect(popup.navigations).toEqual([{ url: AUTH_URL, opener: null }]);
    expect(screen.getAllByText(en.bankOpenedText)).toHaveLength(1);
    fireEvent.click(button('Show the bank’s window'));
    expect(popup.focused).toBe(1);
    expect(await axeViolations(view.container)).toEqual([]);
  });
});
