// @vitest-environment jsdom
// When the outcomes chunk (the words of a payment that did not go through) cannot be loaded,
// the failure screen still tells the customer something went wrong and keeps its actions.
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { andRedraw, renderCheckout } from './checkout-harness';

vi.mock('#chunks', async (original) => ({
  ...(await original<typeof import('../../src/widget/chunks')>()),
  loadOutcomesChunk: () => Promise.reject(new TypeError('Failed to fetch')),
}));

afterEach(cleanup);

describe('the outcomes chunk out of reach', () => {
  it('a pushed FAILED says "Something went wrong", focused, with Try again and Close', async () => {
    const { companion } = await renderCheckout();
    await andRedraw(() => companion.push('FAILED'));
    const title = await screen.findByRole('heading', { name: 'Something went wrong' });
    expect(document.activeElement).toBe(title);
    expect(screen.getAllByText('The checkout could not continue. Please try again.')).toHaveLength(
      1,
    );
    expect(screen.queryByText('Loading…')).toBeNull();

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(companion.sessions).toHaveLength(2);
    expect(screen.getAllByRole('heading', { name: 'Transfer to this account' })).toHaveLength(1);
  });
});
