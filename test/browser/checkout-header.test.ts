// @vitest-environment jsdom
// The checkout's header (issue 23): who is paid (the companion's merchant, its logo decoration
// beside the name), the amount, and what is bought beneath it; with a merchant and without one,
// from a companion that sends a malformed merchant, and on an already paid order.
import { cleanup, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CompanionFailure, parseSession } from '../../src/flow/companion';
import { FakeCompanion } from '../helpers/fake-companion';
import { renderCheckout } from './checkout-harness';

afterEach(cleanup);

function header(): HTMLElement {
  const found = document.querySelector<HTMLElement>('.header');
  if (!found) throw new Error('no header');
  return found;
}

/** The session as the companion's JSON says it, through the widget's own checks. */
function fromWire(merchant: unknown) {
  return parseSession({
    token: 'session-token',
    checkout: {
      amount: { amountMinor: 4_999, currency: 'GBP' },
      description: 'Merino scarf',
      channels: [{ name: 'PayByTransfer', description: null }],
      ...(merchant === undefined ? {} : { merchant }),
    },
    payment: null,
  });
}

async function withSession(session: ReturnType<typeof fromWire>) {
  const companion = new FakeCompanion();
  companion.answerSession = async () => session;
  return renderCheckout({ companion, supportedChannels: ['PayByTransfer', 'PayByAccount'] });
}

describe('the header with a merchant', () => {
  it('names the merchant, its logo beside with an empty alt, then the amount, then what is bought', async () => {
    await withSession(
      fromWire({ name: 'Adire & Co.', logoUrl: 'https://cdn.shop.example/logo.svg' }),
    );
    const merchant = screen.getByText('Adire & Co.');
    const logo = merchant.querySelector('img');
    expect(logo?.getAttribute('src')).toBe('https://cdn.shop.example/logo.svg');
    // Decoration: the name beside it says who it is, so the image says nothing.
    expect(logo?.getAttribute('alt')).toBe('');
    const total = screen.getByText('£49.99');
    const bought = screen.getByRole('heading', { name: 'Merino scarf', level: 2 });
    // In reading order: who, how much, what.
    const order = [...header().querySelectorAll('.merchant, .total, h2')];
    expect(order).toEqual([merchant, total, bought]);
    // The dialog's name is still the checkout and what is bought, not the merchant's logo.
    expect(screen.getAllByRole('dialog', { name: 'Checkout Merino scarf' })).toHaveLength(1);
  });

  it('shows the name without a logo when none is given', async () => {
    await withSession(fromWire({ name: 'Adire & Co.' }));
    expect(screen.getByText('Adire & Co.').querySelector('img')).toBeNull();
  });

  it('hands the brand colours to the stylesheet only as the companion sent them', async () => {
    await withSession(fromWire({ name: 'A', brandColor: '#0a7d5a', brandColorDark: '#0a7d5a' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.style.getPropertyValue('--accent')).toBe('#0a7d5a');
    expect(dialog.style.getPropertyValue('--accent-dark')).toBe('#0a7d5a');
    cleanup();
    // Light only: the dark dialog keeps its own colour.
    await withSession(fromWire({ name: 'A', brandColor: '#0a2540' }));
    expect(screen.getByRole('dialog').style.getPropertyValue('--accent')).toBe('#0a2540');
    expect(screen.getByRole('dialog').style.getPropertyValue('--accent-dark')).toBe('');
  });
});

describe('the header without a merchant', () => {
  it('shows the amount and what is bought, and nothing where the merchant would be', async () => {
    await withSession(fromWire(undefined));
    expect(header().querySelector('.merchant')).toBeNull();
    expect(header().querySelector('img')).toBeNull();
    expect(screen.getByText('£49.99').className).toBe('total');
    expect(screen.getAllByRole('heading', { name: 'Merino scarf', level: 2 })).toHaveLength(1);
    expect(screen.getByRole('dialog').style.getPropertyValue('--accent')).toBe('');
  });

  for (const [what, merchant] of [
    ['a name too long', { name: 'x'.repeat(81) }],
    ['a javascript: logo', { name: 'Adire', logoUrl: 'javascript:alert(1)' }],
    ['a colour that is not #rrggbb', { name: 'Adire', brandColor: 'red;background:url(x)' }],
    ['a string', 'Adire'],
    ['null', null],
  ] as const) {
    it(`leaves out a merchant with ${what}, and the checkout still opens`, async () => {
      const session = fromWire(merchant);
      expect(session.merchant).toBeUndefined();
      await withSession(session);
      expect(header().querySelector('.merchant')).toBeNull();
      expect(screen.getAllByText('£49.99')).toHaveLength(1);
      expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
    });
  }
});

describe('the header of an order already paid', () => {
  it('names the merchant and what was paid, and no amount to pay', async () => {
    const companion = new FakeCompanion();
    companion.answerSession = async () => {
      throw new CompanionFailure('already_paid', 'Paid.', 'req_1', null, {
        description: 'Merino scarf',
        amount: { amountMinor: 4_999, currency: 'GBP' },
        merchant: {
          name: 'Adire & Co.',
          logoUrl: undefined,
          brandColor: undefined,
          brandColorDark: undefined,
        },
      });
    };
    await renderCheckout({ companion });
    expect(await screen.findAllByText('Adire & Co.')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { name: 'Merino scarf', level: 2 })).toHaveLength(1);
    expect(screen.queryByText('£49.99')).toBeNull();
  });
});
