// What the merchant narrows and what the provider refuses, through the companion over real HTTP
// against a real sandbox: resolveOrder's `channels` narrow the provider's offer (and a bad list is
// the merchant's bug, said clearly in the log), a paid one-time link is "already paid" to the next
// customer, and the challenge page lets the issuer's frame navigate only where it must.
import { describe, expect, it } from 'vitest';
import type { ResolvedOrder } from '../../../src/server';
import {
  companionPerTest,
  control,
  ORDERS,
  recorder,
  sandboxPayments,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const KEY = `sk_test_channels_${crypto.randomUUID().replaceAll('-', '')}`;
const SHOP = 'https://shop.example';
const NGN = ORDERS['order-ngn'] as ResolvedOrder;

const seen: string[] = [];
const start = companionPerTest(KEY, seen);
const { call } = recorder(seen);

function initiateCalls(rig: { providerCalls: Array<{ path: string }> }): number {
  return rig.providerCalls.filter((entry) => entry.path === '/api/payment/pay/initiate').length;
}

/** A companion whose resolveOrder answers `order` for every id. */
function startWithOrder(order: unknown) {
  return start({ resolveOrder: () => order as ResolvedOrder });
}

describe('resolveOrder narrowing the channels', () => {
  it('offers only the transfer when the order allows only it, and refuses a card with channel_unavailable', async () => {
    // For NGN the provider offers PayByTransfer and Card.
    const rig = await startWithOrder({ ...NGN, channels: ['PayByTransfer'] });
    const session = await call(rig, 'POST', '/session', { body: { order: 'o-1' } });
    expect(session.status, session.text).toBe(200);
    expect(session.body.checkout.channels).toEqual([
      { name: 'PayByTransfer', description: expect.any(String) },
    ]);

    const card = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'Card', card: testCard('4242424242424242') },
    });
    expect(card.status, card.text).toBe(409);
    expect(card.body.error.code).toBe('channel_unavailable');
    expect(initiateCalls(rig)).toBe(0);

    const transfer = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(transfer.status, transfer.text).toBe(200);
    expect(transfer.body.payment.channel).toBe('PayByTransfer');
  });

  it('without channels, offers everything the provider offers for the amount', async () => {
    const rig = await startWithOrder(NGN);
    const session = await call(rig, 'POST', '/session', { body: { order: 'o-2' } });
    expect(session.body.checkout.channels.map((channel: { name: string }) => channel.name)).toEqual(
      ['PayByTransfer', 'Card'],
    );
  });

  it('narrows, never widens: a channel the provider does not offer for the amount stays out', async () => {
    // PayByAccount takes GBP only; allowing it on an NGN order cannot make it appear.
    const rig = await startWithOrder({ ...NGN, channels: ['PayByAccount', 'Card'] });
    const session = await call(rig, 'POST', '/session', { body: { order: 'o-3' } });
    expect(session.body.checkout.channels.map((channel: { name: string }) => channel.name)).toEqual(
      ['Card'],
    );
    const bank = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByAccount' },
    });
    expect(bank.status, bank.text).toBe(409);
    expect(bank.body.error.code).toBe('channel_unavailable');
    expect(initiateCalls(rig)).toBe(0);
  });

  for (const [what, channels] of [
    ['an unknown channel name', ['PayByTransfer', 'Crypto']],
    ['a misspelt one', ['paybytransfer']],
    ['a string, not a list', 'PayByTransfer'],
  ] as const) {
    it(`with ${what} is a clear internal error, before the provider is asked anything`, async () => {
      const rig = await startWithOrder({ ...NGN, channels });
      const session = await call(rig, 'POST', '/session', { body: { order: 'o-4' } });
      expect(session.status, session.text).toBe(500);
      expect(session.body.error.code).toBe('internal');
      expect(session.body.error.requestId).toEqual(expect.any(String));
      // The browser gets no detail of the merchant's code; the log says exactly what is wrong.
      expect(session.text).not.toContain('Crypto');
      const logged = rig.logLines.filter((line) => line.includes(session.body.error.requestId));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('resolveOrder must return');
      expect(logged[0]).toContain('channels?: some of PayByTransfer, PayByAccount, Card');
      expect(rig.providerCalls).toEqual([]);
    });
  }
});

describe('an order or link the merchant says is paid', () => {
  it('is already_paid at /session, before the provider is asked anything', async () => {
    const rig = await startWithOrder({ ...NGN, paid: true });
    const session = await call(rig, 'POST', '/session', { body: { order: 'o-paid' } });
    expect(session.status, session.text).toBe(409);
    expect(session.body.error).toMatchObject({
      code: 'already_paid',
      message: 'This order has already been paid.',
    });
    expect(rig.providerCalls).toEqual([]);
  });

  it('paid: false, or left out, is an order to pay', async () => {
    const rig = await startWithOrder({ ...NGN, paid: false });
    const session = await call(rig, 'POST', '/session', { body: { order: 'o-unpaid' } });
    expect(session.status, session.text).toBe(200);
  });

  it('paid that is not true or false is the merchant’s bug, said in the log', async () => {
    const rig = await startWithOrder({ ...NGN, paid: 'yes' });
    const session = await call(rig, 'POST', '/session', { body: { order: 'o-what' } });
    expect(session.status, session.text).toBe(500);
    const logged = rig.logLines.filter((line) => line.includes(session.body.error.requestId));
    expect(logged[0]).toContain('paid?: boolean');
    expect(rig.providerCalls).toEqual([]);
  });
});

describe('a payment link', () => {
  /** A companion whose resolveLink knows the links this test creates on its sandbox. */
  async function startWithLinks() {
    const links = new Map<string, ResolvedOrder>();
    const rig = await start({ resolveLink: (alias) => links.get(alias) ?? null });
    async function createLink(linkType: 0 | 1): Promise<string> {
      const link = await control(rig, 'POST', '/api/payment/payment-link', {
        name: 'Invoice 1042',
        description: 'Two bags of rice',
        linkType,
        amountType: 0,
        currencyCode: 'NGN',
        amountInfo: { currencyCode: 'NGN', amount: 5000 },
      });
      const alias = link.value.alias as string;
      links.set(alias, { amountMinor: 500_000, currency: 'NGN', description: 'Invoice 1042' });
      return alias;
    }
    /** A customer opens the link and pays it by transfer, in full. */
    async function payOnce(alias: string): Promise<string> {
      const session = await call(rig, 'POST', '/session', { body: { link: alias } });
      expect(session.status, session.text).toBe(200);
      const initiated = await call(rig, 'POST', '/initiate', {
        token: session.body.token,
        body: { channel: 'PayByTransfer' },
      });
      expect(initiated.status, initiated.text).toBe(200);
      const reference = initiated.body.payment.reference as string;
      await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`);
      const status = await call(rig, 'GET', '/status', { token: initiated.body.token });
      expect(status.body.status).toBe('SUCCESSFUL');
      return reference;
    }
    return { rig, createLink, payOnce };
  }

  it('one-time, once paid: the next customer’s initiate answers 409 already_paid, kindly', async () => {
    const { rig, createLink, payOnce } = await startWithLinks();
    const alias = await createLink(0);
    const paid = await payOnce(alias);

    // Another customer (or the same one, later) opens the link again.
    const session = await call(rig, 'POST', '/session', { body: { link: alias } });
    expect(session.status, session.text).toBe(200);
    for (const body of [
      { channel: 'PayByTransfer' },
      { channel: 'Card', card: testCard('4242424242424242') },
    ]) {
      const again = await call(rig, 'POST', '/initiate', { token: session.body.token, body });
      expect(again.status, again.text).toBe(409);
      expect(again.body.error).toEqual({
        code: 'already_paid',
        message: 'This payment link has already been paid.',
        requestId: expect.any(String),
      });
    }
    // The provider kept the one payment, and was asked for no other that went through.
    const onLink = (await sandboxPayments(rig)).filter(
      (payment: { linkAlias?: string }) => payment.linkAlias === alias,
    );
    expect(onLink.map((payment: { reference: string }) => payment.reference)).toEqual([paid]);
  });

  it('one-time, refused once as paid: the next session says so before any channel is offered', async () => {
    const { rig, createLink, payOnce } = await startWithLinks();
    const alias = await createLink(0);
    await payOnce(alias);
    const first = await call(rig, 'POST', '/session', { body: { link: alias } });
    const refused = await call(rig, 'POST', '/initiate', {
      token: first.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(refused.body.error.code).toBe('already_paid');
    const calls = rig.providerCalls.length;

    const next = await call(rig, 'POST', '/session', { body: { link: alias } });
    expect(next.status, next.text).toBe(409);
    expect(next.body.error).toMatchObject({
      code: 'already_paid',
      message: 'This payment link has already been paid.',
    });
    // Said from memory: the provider was not asked again.
    expect(rig.providerCalls.length).toBe(calls);
  });

  it('reusable: a second customer pays it too', async () => {
    const { rig, createLink, payOnce } = await startWithLinks();
    const alias = await createLink(1);
    await payOnce(alias);
    const session = await call(rig, 'POST', '/session', { body: { link: alias } });
    const again = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(again.status, again.text).toBe(200);
  });
});

describe('the card challenge page’s CSP', () => {
  /** `directive source source…; …` as a map of directive to its sources. */
  function directives(csp: string): Map<string, string[]> {
    return new Map(
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0])
        .map(([name, ...sources]) => [name as string, sources]),
    );
  }

  /** Whether a URL is allowed by one of the CSP sources given (the forms used here). */
  function allows(sources: readonly string[], url: URL, self: string): boolean {
    return sources.some((source) => {
      if (source === "'self'") return url.origin === self;
      if (/^[a-z]+:$/.test(source)) return url.protocol === source;
      const match = source.match(/^(https?):\/\/([^:/]+)(?::(\d+|\*))?$/);
      if (!match) return false;
      const [, scheme, host, port] = match;
      const urlPort = url.port || (url.protocol === 'https:' ? '443' : '80');
      return (
        url.protocol === `${scheme}:` &&
        url.hostname === host &&
        (port === '*' || (port ?? (scheme === 'https' ? '443' : '80')) === urlPort)
      );
    });
  }

  it('lets the issuer’s frame go to https and the loopback sandbox, framed only by the shop', async () => {
    const rig = await start({ allowedOrigins: [SHOP] });
    const session = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:c1' },
      headers: { origin: SHOP },
    });
    const initiated = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'Card', card: testCard('4000000000003220') },
      headers: { origin: SHOP },
    });
    expect(initiated.status, initiated.text).toBe(200);
    const auth = await call(rig, 'POST', '/authenticate', {
      token: initiated.body.token,
      headers: { origin: SHOP },
    });
    expect(auth.body.authenticationRequired).toBe(true);

    const page = await fetch(auth.body.challengeUrl);
    const html = await page.text();
    seen.push(html);
    expect(page.status).toBe(200);
    const csp = directives(page.headers.get('content-security-policy') ?? '');
    expect(csp.get('frame-src')).toEqual([
      "'self'",
      'https:',
      'http://localhost:*',
      'http://127.0.0.1:*',
    ]);
    expect(csp.get('frame-ancestors')).toEqual(["'self'", SHOP]);
    expect(csp.get('default-src')).toEqual(["'none'"]);

    // The issuer's page posts its form to the issuer (here the sandbox, on loopback), inside the
    // frame: that navigation is what frame-src must allow.
    const frameUrl = (html.match(/<iframe[^>]*\ssrc="([^"]+)"/)?.[1] ?? '').replaceAll(
      '&amp;',
      '&',
    );
    expect(frameUrl.startsWith(`${rig.url}/challenge/frame?`)).toBe(true);
    const issuerResponse = await fetch(frameUrl);
    // frame-ancestors is checked against every ancestor: the shop's page is one of them.
    expect(
      directives(issuerResponse.headers.get('content-security-policy') ?? '').get(
        'frame-ancestors',
      ),
    ).toEqual(["'self'", SHOP]);
    const issuer = await issuerResponse.text();
    seen.push(issuer);
    const action = new URL(issuer.match(/<form[^>]*action="([^"]+)"/)?.[1] ?? 'about:blank');
    expect(action.origin).toBe(new URL(rig.sandbox.url).origin);
    const sources = csp.get('frame-src') ?? [];
    expect(allows(sources, action, rig.origin)).toBe(true);
    expect(allows(sources, new URL('https://acs.issuer.example/challenge'), rig.origin)).toBe(true);
    // Plain http elsewhere, and other schemes, stay out.
    expect(allows(sources, new URL('http://issuer.example/challenge'), rig.origin)).toBe(false);
    expect(allows(sources, new URL('data:text/html,hi'), rig.origin)).toBe(false);
  });
});

describe('a card payment picked up again', () => {
  async function cardPayment(rig: Awaited<ReturnType<typeof start>>, order: string, card: string) {
    const session = await call(rig, 'POST', '/session', { body: { order } });
    const initiated = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'Card', card: testCard(card) },
    });
    expect(initiated.status, initiated.text).toBe(200);
    return initiated.body as { token: string; payment: { reference: string } };
  }

  it('is not, while its challenge is unfinished: a reload or Try again starts a new card payment', async () => {
    const rig = await startWithOrder(NGN);
    const first = await cardPayment(rig, 'o-card-1', '4000000000003220');
    const auth = await call(rig, 'POST', '/authenticate', { token: first.token });
    expect(auth.body.authenticationRequired).toBe(true);

    const reload = await call(rig, 'POST', '/session', { body: { order: 'o-card-1' } });
    expect(reload.body.payment).toBeNull();
    const second = await cardPayment(rig, 'o-card-1', '4242424242424242');
    expect(second.payment.reference).not.toBe(first.payment.reference);
  });

  it('is, once finalized: the charge under way is followed, never started twice', async () => {
    const rig = await startWithOrder(NGN);
    const first = await cardPayment(rig, 'o-card-2', '4242424242424242');
    await call(rig, 'POST', '/authenticate', { token: first.token });
    const finalized = await call(rig, 'POST', '/finalize', { token: first.token });
    expect(finalized.body.status).toBe('SUCCESSFUL');

    const reload = await call(rig, 'POST', '/session', { body: { order: 'o-card-2' } });
    expect(reload.body.payment).toMatchObject({
      reference: first.payment.reference,
      channel: 'Card',
      status: 'SUCCESSFUL',
    });
  });
});
