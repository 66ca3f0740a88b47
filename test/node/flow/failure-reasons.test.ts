/**
 * The model told why a transfer failed (issue 12, items 2 and 3), pushed or polled: an account
 * the provider expired is the expired step however much time our countdown still shows; a
 * transfer short carries what arrived only when it is money of the payment's currency and less
 * than was due; a malformed event is left out of the amounts, never the reason.
 */
import { describe, expect, it } from 'vitest';
import { parseStatus } from '../../../src/flow/companion';
import { flush } from '../../helpers/fake-clock';
import { SERVER_NOW, THIRTY_MINUTES } from '../../helpers/fake-companion-answers';
import { harness, inTransfer } from './model-harness';

describe('a pushed failure with its reason', () => {
  it('expired: the expired step, with the countdown still at 30 minutes', async () => {
    const h = harness();
    await inTransfer(h);
    expect(h.model.secondsLeft.value).toBe(THIRTY_MINUTES / 1000);
    const pushed = h.companion.active[0];
    pushed?.onStatus('FAILED', parseStatus({ status: 'FAILED', reason: 'expired' }));
    expect(h.model.step.value.kind).toBe('expired');
    expect(h.model.outcome.value).toMatchObject({ status: 'failed', error: { code: 'expired' } });
  });

  it('transfer_short: the failed step with what arrived', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.active[0]?.onStatus(
      'FAILED',
      parseStatus({
        status: 'FAILED',
        reason: 'transfer_short',
        paid: { amountMinor: 2_000_000 / 10, currency: 'NGN' },
      }),
    );
    expect(h.model.step.value).toMatchObject({
      kind: 'failed',
      code: 'transfer_short',
      paid: { amountMinor: 200_000, currency: 'NGN' },
    });
    expect(h.model.outcome.value).toMatchObject({ error: { code: 'transfer_short' } });
  });

  for (const [name, paid] of [
    ['more than was due', { amountMinor: 2_500_050, currency: 'NGN' }],
    ['another currency', { amountMinor: 100, currency: 'GBP' }],
    ['not money', { amountMinor: -5, currency: 'NGN' }],
    ['not money either', { amountMinor: '100', currency: 'naira' }],
  ] as const) {
    it(`transfer_short with an amount paid that is ${name}: told short, without the amounts`, async () => {
      const h = harness();
      await inTransfer(h);
      h.companion.active[0]?.onStatus(
        'FAILED',
        parseStatus({ status: 'FAILED', reason: 'transfer_short', paid }),
      );
      const step = h.model.step.value;
      expect(step).toMatchObject({ kind: 'failed', code: 'transfer_short' });
      expect(step.kind === 'failed' && step.paid).toBeUndefined();
    });
  }

  it('a reason this widget does not know: the plain failure', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.active[0]?.onStatus('FAILED', parseStatus({ status: 'FAILED', reason: 'meteor' }));
    expect(h.model.step.value).toMatchObject({ kind: 'failed', code: 'payment_failed' });
  });
});

describe('a polled failure with its reason', () => {
  it("expired: the provider's time anchors the countdown, and the expired step follows", async () => {
    const h = harness();
    await inTransfer(h);
    h.model.sentMoney();
    const check = h.companion.statuses.at(-1);
    check?.answer.resolve({
      status: 'FAILED',
      serverTime: SERVER_NOW + THIRTY_MINUTES + 5000,
      reason: 'expired',
    });
    await flush();
    expect(h.model.step.value.kind).toBe('expired');
  });
});
