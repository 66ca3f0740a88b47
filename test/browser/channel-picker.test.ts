// @vitest-environment jsdom
// The channel picker on its own: a labelled radio group the customer can use with the keyboard.

import { fireEvent, render, screen, within } from '@testing-library/preact';
import { h } from 'preact';
import { describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../src/protocol';
import type { Messages } from '../../src/widget/messages';
import { en } from '../../src/widget/messages/en';
import { fr } from '../../src/widget/messages/fr';
import { ChannelPicker, channelLabel } from '../../src/widget/ui/ChannelPicker';
import { axeViolations } from './axe';
import { pressArrow } from './setup-dom';

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
  it('is a group named by its legend, one radio per channel with its description', () => {
    renderPicker();
    const group = screen.getByRole('group', { name: 'How would you like to pay?' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => radio.value)).toEqual(['PayByTransfer', 'PayByAccount', 'Card']);
    expect(within(group).getByRole('radio', { name: /^Bank transfer/ })).toBe(radios[0]);
    expect(within(group).getByRole('radio', { name: 'Pay from your bank' })).toBe(radios[1]);
    expect(within(group).getByRole('radio', { name: /^Card/ })).toBe(radios[2]);
    expect(within(group).getByText('Visa, Mastercard, Verve')).toBeTruthy();
    expect(radios.map((radio) => radio.checked)).toEqual([true, false, false]);
    expect(new Set(radios.map((radio) => radio.name)).size).toBe(1);
  });

  it('moves with the arrow keys, wrapping around, and Continue sends the checked one', () => {
    const { onChoose } = renderPicker();
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    pressArrow(radios[0] as HTMLInputElement);
    pressArrow(radios[1] as HTMLInputElement, 'ArrowRight');
    expect(radios.map((radio) => radio.checked)).toEqual([false, false, true]);
    pressArrow(radios[2] as HTMLInputElement);
    expect(radios.map((radio) => radio.checked)).toEqual([true, false, false]);
    pressArrow(radios[0] as HTMLInputElement);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose).toHaveBeenCalledWith('PayByAccount');
  });

  it('follows a click on the label text, not just on the radio', () => {
    const { onChoose } = renderPicker();
    fireEvent.click(screen.getByText('Visa, Mastercard, Verve'));
    expect((screen.getByRole('radio', { name: /^Card/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.submit(
      screen.getByRole('button', { name: 'Continue' }).closest('form') as HTMLFormElement,
    );
    expect(onChoose).toHaveBeenCalledWith('Card');
  });

  it('names the channels in the customer’s language', () => {
    renderPicker(fr);
    expect(screen.getByRole('group', { name: 'Comment souhaitez-vous payer ?' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: /^Virement bancaire/ })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Payer depuis votre banque' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continuer' })).toBeTruthy();
    expect(channelLabel('Card', fr)).toBe('Carte');
  });

  it('passes axe', async () => {
    const { container } = renderPicker();
    expect(await axeViolations(container)).toEqual([]);
  });
});
