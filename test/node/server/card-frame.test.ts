/**
 * The companion's side of the card frame (issue 19): the frame document's headers, POST /card for
 * the frame's opaque origin alone, /initiate refusing card data, and the cardEntry option.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutHandler } from '../../../src/server';
import { type CompanionRig, companionCall, startCompanion } from '../../helpers/companion';

let rig: CompanionRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const YEAR = new Date().getFullYear() + 3;
const CARD = {
  number: '4242424242424242',
  expiryMonth: 12,
  expiryYear: YEAR,
  cvv: '123',
  holderName: 'Ada Obi',
};

async function session(current: CompanionRig): Promise<string> {
  const opened = await companionCall(current, 'POST', '/session', {
    body: { order: 'order-usd:cf' },
  });
  return opened.body.token as string;
}

describe('the card frame document', () => {
  it('is sandboxed by its own CSP, loads only the companion’s files and is framed only by allowed pages', async () => {
    rig = await startCompanion({ cardEntry: 'direct', allowedOrigins: ['https://shop.example'] });
    const page = await fetch(`${rig.url}/card-frame`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp.startsWith('sandbox allow-scripts allow-forms;')).toBe(true);
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain(`script-src ${rig.origin};`);
    expect(csp).toContain(`style-src ${rig.origin};`);
    expect(csp).toContain(`connect-src ${rig.origin};`);
    expect(csp).toContain(`frame-ancestors ${rig.origin} https://shop.example`);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain(`<script src="${rig.url}/assets/card-frame.js"></script>`);
    expect(html).not.toMatch(/<script>|<style|style=/);
    // Its files load from the opaque origin (Chromium sends Origin: null even for these).
    const script = await fetch(`${rig.url}/assets/card-frame.js`, { headers: { origin: 'null' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });
});

describe('POST /card', () => {
  it('answers the frame’s opaque origin (preflight included) and starts a card payment', async () => {
    rig = await startCompanion({ cardEntry: 'direct' });
    const preflight = await fetch(`${rig.url}/card`, {
      method: 'OPTIONS',
      headers: {
        origin: 'null',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('null');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type',
    );
    const token = await session(rig);
    const answer = await companionCall(rig, 'POST', '/card', {
      token,
      body: { card: CARD },
      headers: { origin: 'null' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('null');
    expect(answer.body.payment.channel).toBe('Card');
    expect(answer.body.token).toEqual(expect.any(String));
    expect(answer.text).not.toContain('4242424242424242');
  });

  it('refuses every other origin, the companion’s own included, and a card without a token', async () => {
    rig = await startCompanion({ cardEntry: 'direct', allowedOrigins: ['https://shop.example'] });
    const token = await session(rig);
    for (const origin of [rig.origin, 'https://shop.example', 'https://evil.example']) {
      const answer = await companionCall(rig, 'POST', '/card', {
        token,
        body: { card: CARD },
        headers: { origin },
      });
      expect(answer.status, origin).toBe(403);
      expect(answer.body.error.code).toBe('cross_site_request');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    const bare = await companionCall(rig, 'POST', '/card', {
      body: { card: CARD },
      headers: { origin: 'null' },
    });
    expect(bare.status).toBe(401);
    // Origin: null opens /card only: /initiate and the others still refuse it.
    const initiate = await companionCall(rig, 'POST', '/initiate', {
      token,
      body: { channel: 'PayByTransfer' },
      headers: { origin: 'null' },
    });
    expect(initiate.status).toBe(403);
    expect(rig.providerCalls.filter((call) => call.path.includes('initiate'))).toEqual([]);
  });
});

describe('POST /initiate', () => {
  it('refuses a card: card details come from the card frame only', async () => {
    rig = await startCompanion({ cardEntry: 'direct' });
    const token = await session(rig);
    const answer = await fetch(`${rig.url}/initiate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'Card', card: CARD }),
    });
    expect(answer.status).toBe(400);
    const body = await answer.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.issues).toEqual([
      'card card details are accepted only from the card frame (POST /card): the page never sends them',
    ]);
    expect(rig.providerCalls.filter((call) => call.path.includes('initiate'))).toEqual([]);
  });
});

describe('the cardEntry option', () => {
  const base = {
    secretKey: 'sk_test_key_123456',
    baseUrl: 'http://127.0.0.1:1',
    resolveOrder: () => null,
  };
  it('takes hosted or direct, and names the choices for anything else', () => {
    expect(() => createCheckoutHandler({ ...base, cardEntry: 'direct' }).close()).not.toThrow();
    expect(() => createCheckoutHandler({ ...base, cardEntry: 'hosted' }).close()).not.toThrow();
    expect(() => createCheckoutHandler({ ...base, cardEntry: 'iframe' as never })).toThrow(
      `cardEntry must be 'hosted' (the provider's payment page) or 'direct' (the card frame), not "iframe".`,
    );
  });
});
