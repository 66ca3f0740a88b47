/**
 * The checkout model wired to the fake companion (test/helpers/fake-companion.ts, every answer
 * held until the test settles it) and the fake clock: no DOM, no network, no real timers. Plus
 * the steps most tests begin from.
 */
import { effect, untracked } from '@preact/signals';
import {
  type CheckoutModel,
  type CheckoutModelOptions,
  type CheckoutStep,
  createCheckoutModel,
} from '../../../src/flow/checkout-model';
import type { PaymentView } from '../../../src/flow/companion';
import { FakeClock, flush } from '../../helpers/fake-clock';
import { FakeCompanion } from '../../helpers/fake-companion';
import { paymentView, sessionView } from '../../helpers/fake-companion-answers';

// ---------------------------------------------------------------------------------------------
// A model wired to the fakes
// ---------------------------------------------------------------------------------------------

export interface HarnessOptions extends Partial<Omit<CheckoutModelOptions, 'companion' | 'clock'>> {
  /** Where monotonic time starts; deliberately not 0. */
  readonly startAt?: number;
}

export function harness(options: HarnessOptions = {}) {
  const { startAt = 7_000, ...rest } = options;
  const clock = new FakeClock(startAt);
  const companion = new FakeCompanion({ clock, answers: 'held' });
  const steps: CheckoutStep[] = [];
  const model = createCheckoutModel({
    companion,
    clock,
    target: { order: 'order-42' },
    supportedChannels: ['PayByTransfer'],
    onStep: (step) => steps.push(step),
    ...rest,
  });
  return { clock, companion, model, steps };
}

export type Harness = ReturnType<typeof harness>;

export const PAYMENT_TOKEN = 'payment-token';

/** Start, one channel, initiated: the customer looks at the account to pay into. */
export async function inTransfer(h: Harness, payment: PaymentView = paymentView()): Promise<void> {
  void h.model.start();
  h.companion.lastSession().answer.resolve(sessionView());
  await flush();
  h.companion.lastInitiation().answer.resolve({ token: PAYMENT_TOKEN, payment });
  await flush();
  if (!(h.model.step.value.kind === 'paying' && h.model.step.value.channel === 'PayByTransfer')) {
    throw new Error(`Expected the transfer step, got ${h.model.step.value.kind}.`);
  }
}

/** Calls `listener` now and after every change of anything the model shows (one call per batch). */
export function onAnyChange(model: CheckoutModel, listener: () => void): () => void {
  return effect(() => {
    void [
      model.step.value,
      model.session.value,
      model.outcome.value,
      model.milestone.value,
      model.secondsLeft.value,
      model.paymentUnderWay.value,
    ];
    untracked(listener);
  });
}
