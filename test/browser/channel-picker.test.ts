// @vitest-environment jsdom
// The channel picker on its own: one button per channel, so the click that chooses is the one the
// bank's window may open in.

import { fireEvent, render, screen, within } from '@testing-library/preact';
import { h } from 'preact';
import { describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../src/protocol';
import type { Messages } from '../../src/widget/messages';
import { en } from '../../src/widget/messages/en';
import { fr } from '../../src/widget/messages/fr';
import { ChannelPicker, channelLabel } from '../../src/widget/ui/ChannelPicker';
import { axeViolations } from './axe';
import './setup-dom';

function renderPicker(messages: Messages = en) {
  const onChoose = vi.fn<(channel: Channel) => void>();
  const view = render(
    h(ChannelPicker, {
      channels: [
        { name: 'PayByTransfer', description: 'From any Nigerian bank' },
        { name: 'PayByAccount', description: null },
        { name: 'Card', description: 'Visa, Mastercard, Verve' },
      ],
      messages,
      onChoose,
    }),
  );
  return { ...view, onChoose };
}

describe('ChannelPicker', () => {
  it('asks "How would you like to pay?" over one button per channel, in order, with its description', () => {
    renderPicker();
    expect(screen.getAllByRole('heading', { name: 'How would you like to pay?' })).toHaveLength(1);
    const buttons = screen.getAllByRole('button') as HTMLButtonElement[];
    expect(buttons.map((button) => button.textContent)).toEqual([
      'Bank transferTo a one-time account, from your banking app.',
      'Pay from your bankApprove it in your banking app.',
      'CardDebit or credit card.',
    ]);
    // Real buttons that submit nothing: Enter and Space work, no form is sent.
    expect(buttons.map((button) => button.type)).toEqual(['button', 'button', 'button']);
    expect(within(buttons[2] as HTMLElement).getAllByText('Debit or credit card.')).toHaveLength(1);
  });

  it('names each button by its channel alone, and describes it by its text (issue 12)', () => {
    renderPicker();
    const bank = screen.getByRole('button', { name: 'Pay from your bank' });
    const describedBy = bank.getAttribute('aria-describedby') ?? '';
    expect(bank.querySelector(`[id="${describedBy}"]`)?.textContent).toBe(
      'Approve it in your banking app.',
    );
    expect(screen.getAllByRole('button', { name: 'Card' })).toHaveLength(1);
  });

  it('shows the provider’s description only when the merchant’s messages empty the widget’s', () => {
    renderPicker({ ...en, channelCardText: '' });
    expect(screen.getAllByText('Visa, Mastercard, Verve')).toHaveLength(1);
    expect(screen.queryByText('From any Nigerian bank')).toBeNull();
  });

  it('a click on a channel chooses that channel, once', () => {
    const { onChoose } = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: /^Card/ }));
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose).toHaveBeenCalledWith('Card');
    fireEvent.click(screen.getByRole('button', { name: 'Pay from your bank' }));
    expect(onChoose).toHaveBeenLastCalledWith('PayByAccount');
  });

  it('follows a click on the description, inside the button', () => {
    const { onChoose } = renderPicker();
    fireEvent.click(screen.getByText('To a one-time account, from your banking app.'));
    expect(onChoose).toHaveBeenCalledWith('PayByTransfer');
  });

  it('names the channels in the customer’s language', () => {
    renderPicker(fr);
    expect(
      screen.getAllByRole('heading', { name: 'Comment souhaitez-vous payer\u202f?' }),
    ).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Virement bancaire' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Payer depuis votre banque' })).toHaveLength(1);
    expect(screen.getAllByText('Carte de débit ou de crédit.')).toHaveLength(1);
    expect(channelLabel('Card', fr)).toBe('Carte');
  });

  it('passes axe', async () => {
    const { container } = renderPicker();
    expect(await axeViolations(container)).toEqual([]);
  });
});
