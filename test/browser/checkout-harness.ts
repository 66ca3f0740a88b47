/**
 * Renders the real Checkout over the real model, driven by the fake companion and clock, the way
 * open() wires it (the bank's window included), minus the shadow root (so queries reach it
 * directly).
 *
 * jsdom opens no windows: window.open is spied on and answers null, as a browser that blocks the
 * popup does, unless a test gives `openWindow` another answer.
 */
import { act, configure, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, type MockInstance, vi } from 'vitest';
import { type CheckoutResult, createCheckoutModel } from '../../src/flow/checkout-model';
import type { CustomerDetails, PaymentView } from '../../src/flow/companion';
import type { Channel } from '../../src/protocol';
import { Checkout } from '../../src/widget/Checkout';
import { createBankWindow } from '../../src/widget/channels/bank/bank-window';
import type { Messages } from '../../src/widget/messages';
import { en } from '../../src/widget/messages/en';
import { FakeClock } from '../helpers/fake-clock';
import { FakeCompanion } from '../helpers/fake-companion';
import { settle } from './setup-dom';

// The live region repeats what the step says; text queries look at what is on screen, and the
// live region is checked on its own, by role. A find waits up to 10 s, as expect.poll does
// (vitest.config.ts): a lazy chunk's screen (the outcomes' words) took over the default 1 s on a
// loaded machine, and a find that succeeds returns at once.
configure({ defaultIgnore: 'script, style, [role="status"]', asyncUtilTimeout: 10_000 });

export interface CheckoutSetup {
  companion?: FakeCompanion;
  clock?: FakeClock;
  messages?: Messages;
  locale?: string;
  supportedChannels?: Channel[];
  customer?: CustomerDetails;
}

/** What open() passes for the full-page redirect to the bank. */
export const ENDPOINT = '/api/checkout';
export const TARGET = { order: 'order_1042' };

const teardown: Array<() => void> = [];
afterEach(() => {
  for (const undo of teardown.splice(0).reverse()) undo();
});

function spyOnWindowOpen(): MockInstance<typeof window.open> {
  if (vi.isMockFunction(window.open)) return vi.mocked(window.open);
  const spy = vi.spyOn(window, 'open').mockReturnValue(null);
  teardown.push(() => spy.mockRestore());
  return spy;
}

export async function renderCheckout(setup: CheckoutSetup = {}) {
  const companion = setup.companion ?? new FakeCompanion();
  const clock = setup.clock ?? new FakeClock();
  const onDone = vi.fn<(result: CheckoutResult) => void>();
  const openWindow = spyOnWindowOpen();
  const model = createCheckoutModel({
    companion,
    clock,
    target: TARGET,
    customer: setup.customer,
    supportedChannels: setup.supportedChannels ?? ['PayByTransfer'],
  });
  const bank = createBankWindow(model, (payment: PaymentView) => {
    const token = model.paymentToken();
    return token ? { endpoint: ENDPOINT, target: TARGET, token, payment } : null;
  });
  teardown.push(() => {
    bank.dispose();
    model.dispose();
  });
  const view = render(
    h(Checkout, {
      model,
      messages: setup.messages ?? en,
      locale: setup.locale ?? 'en-NG',
      bank,
      companion,
      customer: setup.customer,
      onDone,
    }),
  );
  await act(async () => {
    void model.start();
    await settle();
  });
  return { ...view, companion, clock, model, bank, openWindow, onDone };
}

/** Runs something that moves the model (a push, the clock) and lets the dialog redraw. */
export async function andRedraw(run: () => unknown): Promise<void> {
  await act(async () => {
    await run();
    await settle();
  });
}

export function dialog(): HTMLDialogElement {
  return screen.getByRole('dialog') as HTMLDialogElement;
}

export function liveRegion(): HTMLElement {
  return screen.getByRole('status');
}
