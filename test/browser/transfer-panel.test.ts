// @vitest-environment jsdom
// The transfer panel on its own, over a real model at the transfer step: the account details as a
// screen reader meets them.
import { act, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { describe, expect, it, vi } from 'vitest';
import { createCheckoutModel } from '../../src/flow/checkout-model';
import { TransferPanel } from '../../src/widget/channels/transfer/TransferPanel';
import { en } from '../../src/widget/messages/en';
import { outcomeMessagesEn } from '../../src/widget/outcomes/messages';
import { askOutcomes } from '../../src/widget/ui/outcomes';
import { FakeClock } from '../helpers/fake-clock';
import { FakeCompanion } from '../helpers/fake-companion';
import { paymentView } from '../helpers/fake-companion-answers';
import { axeViolations } from './axe';
import { settle } from './setup-dom';

async function renderPanel(payment = paymentView()) {
  const companion = new FakeCompanion();
  companion.answerInitiate = async () => ({ token: 'payment-token', payment });
  const model = createCheckoutModel({
    companion,
    clock: new FakeClock(),
    target: { order: 'order_1042' },
    supportedChannels: ['PayByTransfer'],
  });
  await act(async () => {
    await model.start();
    await settle();
  });
  const step = model.step.peek();
  if (!(step.kind === 'paying' && step.channel === 'PayByTransfer'))
    throw new Error(`the model is at ${step.kind}`);
  const announce = vi.fn();
  const view = render(
    h(TransferPanel, {
      model,
      payment: step.payment,
      phase: step.phase,
      messages: en,
      locale: 'en-NG',
      announce,
      ask: askOutcomes,
    }),
  );
  return { ...view, model, announce };
}

describe('TransferPanel', () => {
  it('looks and reads differently in the last two minutes (issue 12)', async () => {
    const far = paymentView();
    const account = far.virtualAccount;
    if (!account) throw new Error('no account');
    await renderPanel(
      paymentView({ virtualAccount: { ...account, expiresAt: far.serverTime + 119_000 } }),
    );
    // Its words come with the outcomes chunk, asked for as the last two minutes begin.
    expect((await screen.findByText(outcomeMessagesEn.expiringSoon)).className).toBe('expiring');
    expect(screen.getByRole('timer').parentElement?.className).toBe('expiring');
  });

  it('keeps its usual look with more than two minutes left', async () => {
    await renderPanel();
    expect(screen.queryByText(outcomeMessagesEn.expiringSoon)).toBeNull();
    expect(screen.getByRole('timer').parentElement?.className).toBe('muted');
  });

  it('pairs each label with its value, in the order a customer types them', async () => {
    await renderPanel();
    const terms = screen.getAllByRole('term').map((term) => term.textContent);
    const definitions = screen
      .getAllByRole('definition')
      // The value is the definition's first part; its Copy button follows it.
      .map((definition) => definition.firstElementChild?.textContent);
    expect(terms).toEqual(['Amount', 'Account number', 'Bank', 'Account name']);
    expect(definitions).toEqual([
      '₦25,000.50',
      '012 345 6789',
      'Wema Bank',
      'Paydrop / Amina Stores',
    ]);
  });

  it('uses no inline style attribute (strict CSP, no unsafe-inline)', async () => {
    const { container } = await renderPanel();
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });

  // A <dl> may hold dt/dd groups, or divs that hold only dt/dd: the Copy button lives in the dd.
  it('marks the account details up as a valid definition list (axe)', async () => {
    const { container } = await renderPanel();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('renders nothing for a payment without a virtual account', async () => {
    const { model } = await renderPanel();
    const step = model.step.peek();
    if (!(step.kind === 'paying' && step.channel === 'PayByTransfer'))
      throw new Error('not at transfer');
    const container = document.body.appendChild(document.createElement('div'));
    render(
      h(TransferPanel, {
        model,
        payment: { ...step.payment, virtualAccount: null },
        phase: 'awaiting',
        messages: en,
        locale: 'en-NG',
        announce: () => {},
        ask: askOutcomes,
      }),
      { container },
    );
    expect(container.childNodes).toHaveLength(0);
  });
});
