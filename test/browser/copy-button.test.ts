// @vitest-environment jsdom
// The copy buttons: what reaches the clipboard, what the button says, what is announced.

import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../src/widget/messages/en';
import { CopyButton } from '../../src/widget/ui/CopyButton';
import { FakeCompanion } from '../helpers/fake-companion';
import { paymentView } from '../helpers/fake-companion-answers';
import { andRedraw, renderCheckout } from './checkout-harness';
import { stubClipboard } from './setup-dom';

let restoreClipboard: (() => void) | undefined;
afterEach(() => {
  restoreClipboard?.();
  restoreClipboard = undefined;
  vi.useRealTimers();
});

/** Lets the click's promise chain (writeText, then setState) run, and Preact redraw. */
async function click(button: HTMLElement): Promise<void> {
  await act(async () => {
    fireEvent.click(button);
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
}

describe('CopyButton on its own', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  function renderButton(writeText: (text: string) => Promise<void>) {
    const copied: string[] = [];
    restoreClipboard = stubClipboard(async (text) => {
      copied.push(text);
      return writeText(text);
    });
    const announce = vi.fn<(text: string) => void>();
    render(
      h(CopyButton, {
        value: '0123456789',
        what: 'Account number',
        copiedText: en.copiedAccountNumber,
        messages: en,
        announce,
      }),
    );
    return {
      copied,
      announce,
      button: screen.getByRole('button', { name: 'Copy Account number' }),
    };
  }

  it('copies the value, says "Copied", announces it, and says "Copy" again after 2 seconds', async () => {
    const { copied, announce, button } = renderButton(async () => {});
    expect(button.textContent).toBe('Copy');

    await click(button);
    expect(copied).toEqual(['0123456789']);
    expect(button.textContent).toBe('Copied');
    expect(announce).toHaveBeenCalledWith('Account number copied to the clipboard.');
    // The name holds the shown "Copied" (WCAG 2.5.3), then "Copy" again.
    expect(screen.getByRole('button', { name: 'Account number copied to the clipboard.' })).toBe(
      button,
    );

    await act(() => {
      vi.advanceTimersByTime(1_999);
    });
    expect(button.textContent).toBe('Copied');
    await act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(button.textContent).toBe('Copy');
    expect(screen.getByRole('button', { name: 'Copy Account number' })).toBe(button);
  });

  it('a second copy within 2 seconds keeps "Copied" for 2 seconds from the second one', async () => {
    const { button } = renderButton(async () => {});
    await click(button);
    await act(() => {
      vi.advanceTimersByTime(1_500);
    });
    await click(button);
    await act(() => {
      vi.advanceTimersByTime(1_500);
    });
    expect(button.textContent).toBe('Copied');
    await act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(button.textContent).toBe('Copy');
  });

  it('a refused clipboard announces "Could not copy…" and never says "Copied"', async () => {
    const { announce, button } = renderButton(async () => {
      throw new DOMException('Document is not focused.', 'NotAllowedError');
    });
    await click(button);
    expect(announce).toHaveBeenCalledWith('Could not copy; select the text instead.');
    expect(announce).toHaveBeenCalledTimes(1);
    expect(button.textContent).toBe('Copy');
  });

  it('no clipboard at all (an insecure page) announces "Could not copy…" too', async () => {
    const announce = vi.fn<(text: string) => void>();
    render(
      h(CopyButton, {
        value: 'x',
        what: 'Bank',
        copiedText: en.copiedBank,
        messages: en,
        announce,
      }),
    );
    await click(screen.getByRole('button', { name: 'Copy Bank' }));
    expect(announce).toHaveBeenCalledWith('Could not copy; select the text instead.');
  });

  it('unmounting while "Copied" shows leaves no timer behind', async () => {
    const { button } = renderButton(async () => {});
    await click(button);
    expect(vi.getTimerCount()).toBe(1);
    // cleanup() unmounts; the button's reset timer goes with it.
    cleanup();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('copy buttons in the transfer panel', () => {
  it('copy the raw account number and the amount as a banking app wants them typed', async () => {
    const copied: string[] = [];
    restoreClipboard = stubClipboard(async (text) => {
      copied.push(text);
    });
    await renderCheckout();
    await click(screen.getByRole('button', { name: 'Copy Account number' }));
    await click(screen.getByRole('button', { name: 'Copy Amount' }));
    await click(screen.getByRole('button', { name: 'Copy Bank' }));
    await click(screen.getByRole('button', { name: 'Copy Account name' }));
    expect(copied).toEqual(['0123456789', '25000.50', 'Wema Bank', 'Paydrop / Amina Stores']);
  });

  it('copy the amount with the fees included', async () => {
    const copied: string[] = [];
    restoreClipboard = stubClipboard(async (text) => {
      copied.push(text);
    });
    const companion = new FakeCompanion();
    companion.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ fees: { amountMinor: 5_000, currency: 'NGN' } }),
    });
    await renderCheckout({ companion });
    await click(screen.getByRole('button', { name: 'Copy Amount' }));
    expect(copied).toEqual(['25050.50']);
  });

  it("announce through the dialog's live region", async () => {
    restoreClipboard = stubClipboard(async () => {});
    await renderCheckout();
    await click(screen.getByRole('button', { name: 'Copy Amount' }));
    await andRedraw(() => {});
    expect(screen.getByRole('status').textContent).toBe('Amount copied to the clipboard.');
  });

  it('a refused clipboard is announced through the live region', async () => {
    restoreClipboard = stubClipboard(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    await renderCheckout();
    await click(screen.getByRole('button', { name: 'Copy Account number' }));
    expect(screen.getByRole('status').textContent).toBe('Could not copy; select the text instead.');
  });
});
