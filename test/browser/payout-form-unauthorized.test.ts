// @vitest-environment jsdom
// The payout form mounted by its script tag or mountPayoutForm, when the payouts handler answers
// 401 (no staff session, or one that ended; issue 20): the page is told, so it can show its login.
import './setup-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { mountPayoutForm } from '../../src/back-office/mount';

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

it('tells the page of a 401 through onUnauthorized and a paydrop:unauthorized event', async () => {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    asked.push(String(input));
    return new Response(
      JSON.stringify({
        error: { code: 'unauthorized', message: 'Sign in to use the back office.' },
      }),
      { status: 401, headers: { 'content-type': 'application/json' } },
    );
  });
  const element = document.createElement('div');
  document.body.append(element);
  const events: Event[] = [];
  document.addEventListener('paydrop:unauthorized', (event) => events.push(event));
  let told = 0;
  const mounted = mountPayoutForm(element, {
    endpoint: '/api/back-office',
    onUnauthorized: () => {
      told += 1;
    },
  });
  await vi.waitFor(() => expect(told).toBeGreaterThan(0));
  expect(asked[0]).toMatch(/^\/api\/back-office\/requirements\?currency=/);
  expect(events.length).toBe(told);
  mounted.unmount();
});
