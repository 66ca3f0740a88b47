/**
 * Renders the real Checkout over the real model, driven by the fake companion and clock, the way
 * open() wires it, minus the shadow root (so queries reach it directly).
 */
import { act, configure, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { vi } from 'vitest';
import { type CheckoutResult, createCheckoutModel } from '../../src/flow/checkout-model';
import type { Channel } from '../../src/protocol';
import { Checkout } from '../../src/widget/Checkout';
import type { Messages } from '../../src/widget/messages';
import { en } from '../../src/widget/messages/en';
import { FakeClock, FakeCompanion } from './fakes';
import { settle } from './setup-dom';

// The live region repeats what the step says; text queries look at what is on screen, and the
// live region is checked on its own, by role.
configure({ defaultIgnore: 'script, style, [role="status"]' });

export interface CheckoutSetup {
  companion?: FakeCompanion;
  clock?: FakeClock;
  messages?: Messages;
  locale?: string;
  supportedChannels?: Channel[];
}

export async function renderCheckout(setup: CheckoutSetup = {}) {
  const companion = setup.companion ?? new FakeCompanion();
  const clock = setup.clock ?? new FakeClock();
  const onDone = vi.fn<(result: CheckoutResult) => void>();
  const model = createCheckoutModel({
    companion,
    clock,
    target: { order: 'order_1042' },
    supportedChannels: setup.supportedChannels ?? ['PayByTransfer'],
  });
  const view = render(
    h(Checkout, {
      model,
      messages: setup.messages ?? en,
      locale: setup.locale ?? 'en-NG',
      onDone,
    }),
  );
  await act(async () => {
    void model.start();
    await settle();
  });
  return { ...view, companion, clock, model, onDone };
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
