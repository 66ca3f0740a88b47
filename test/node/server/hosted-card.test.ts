// Card on the provider's hosted page, through the companion over real HTTP against a real
// sandbox (issue 19): the order's one-time link, reused on every reopening; the page's payment
// learnt from the return page or from the webhook alone; never a second charge; nothing of the
// card through the merchant's server.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CompanionRig,
  companionPerTest,
  recorder,
  webhooksSettled,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const KEY = `sk_test_hosted_${crypto.randomUUID().replaceAll('-', '')}`;

let rig: CompanionRig;
const seen: string[] = [];
const start = companionPerTest(KEY, seen);
const { call } = recorder(seen);

beforeEach(async () => {
  rig = await start({ cardEntry: 'hosted' });
});

async function session(order: string) {
  const answer = await call(rig, 'POST', '/session', { body: { order } });
  expect(answer.status).toBe(200);
  return answer.body as { token: string; checkout: { cardEntry: string } };
}

async function openPage(order: string) {
  const { token } = await session(order);
  const page = await call(rig, 'POST', '/card-page', { token, body: {} });
  return page;
}

/** What the provider's page does when the customer pays on it: initiate on the link, check, finalize. */
async function payOnPage(alias: string, number: string, amount = 25000.5, currency = 'NGN') {
  const initiated = await rig.sandbox.request('POST', '/api/payment/pay/initiate', {
    amount,
    currency,
    channel: 'Card',
    link: { alias },
    card: testCard(number),
  });
  expect(initiated.status).toBe(200);
  const reference = (await initiated.json()).value.paymentItem.paymentReference as string;
  const checked = await rig.sandbox.request(
    'GET',
    `/api/payment/pay/authenticate/${encodeURIComponent(reference)}`,
  );
  expect(checked.status).toBe(200);
  await rig.sandbox.request('POST', '/api/payment/pay/finalize', { paymentReference: reference });
  return reference;
}

function linkCalls(): number {
  return rig.providerCalls.filter((entry) => entry.path === '/api/payment/payment-link').length;
}

describe('card on the hosted page', () => {
  it('opens one one-time link for the order at its amount, reused however often the page is reopened', async () => {
    const first = await session('order-ngn:h1');
    expect(first.checkout.cardEntry).toBe('hosted');
    const opened = await call(rig, 'POST', '/card-page', { token: first.token, body: {} });
    expect(opened.status).toBe(200);
    const url = new URL(opened.body.url);
    expect(url.origin).toBe(new URL(rig.sandbox.url).origin);
    const alias = url.pathname.split('/').pop() as string;
    const links = (await (await rig.sandbox.request('GET', '/__sandbox/payments')).json()) as {
      payments: unknown[];
    };
    expect(links.payments).toEqual([]);
    // Reopened from another tab, or after a reload: the same page, no second link.
    const again = await openPage('order-ngn:h1');
    expect(again.status).toBe(200);
    expect(again.body.url).toBe(opened.body.url);
    expect(linkCalls()).toBe(1);
    expect(alias).toMatch(/^\w+$/);
  });

  it('learns the payment from the return page, and reports it once for the order', async () => {
    const opened = await openPage('order-ngn:h2');
    const alias = new URL(opened.body.url).pathname.split('/').pop() as string;
    const waiting = await call(rig, 'POST', '/card-page/payment', { token: opened.body.token });
    expect(waiting.body).toEqual({ payment: null, token: null, cancelled: false });

    const reference = await payOnPage(alias, '4242424242424242');
    const back = await call(
      rig,
      'GET',
      `/return?reference=${encodeURIComponent(reference)}&alias=${alias}`,
    );
    expect(back.status).toBe(200);
    expect(back.text).toContain(`data-alias="${alias}"`);

    const known = await call(rig, 'POST', '/card-page/payment', { token: opened.body.token });
    expect(known.status).toBe(200);
    expect(known.body.payment).toMatchObject({ reference, channel: 'Card' });
    const status = await call(rig, 'GET', '/status', { token: known.body.token });
    expect(status.body.status).toBe('SUCCESSFUL');
    await rig.handler.idle();
    await webhooksSettled(rig);
    const outcomes = rig.paymentOutcomes.filter((outcome) => outcome.reference === reference);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      orderId: 'order-ngn:h2',
      status: 'SUCCESSFUL',
      channel: 'Card',
      amountMatches: true,
      duplicate: false,
    });
    // Paid: the page is not offered again.
    const reopened = await openPage('order-ngn:h2');
    expect(reopened.status).toBe(409);
    expect(reopened.body.error.code).toBe('already_paid');
  });

  it('learns a payment from the webhook alone when the customer never comes back', async () => {
    const opened = await openPage('order-ngn:h3');
    const alias = new URL(opened.body.url).pathname.split('/').pop() as string;
    const reference = await payOnPage(alias, '4242424242424242');
    // The tab was closed on the provider's page: only the provider's webhook says anything.
    const hint = await fetch(`${rig.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'payment.success',
        data: { reference, paymentReference: reference, link: { alias } },
      }),
    });
    expect(hint.status).toBe(200);
    await rig.handler.runDue();
    await rig.handler.idle();
    const outcomes = rig.paymentOutcomes.filter((outcome) => outcome.reference === reference);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ orderId: 'order-ngn:h3', status: 'SUCCESSFUL' });
  });

  it('tells a declined card apart, and the same page takes another card', async () => {
    const opened = await openPage('order-ngn:h4');
    const alias = new URL(opened.body.url).pathname.split('/').pop() as string;
    const declined = await payOnPage(alias, '4000000000000002');
    await call(rig, 'GET', `/return?reference=${declined}&alias=${alias}`);
    const known = await call(rig, 'POST', '/card-page/payment', { token: opened.body.token });
    const status = await call(rig, 'GET', '/status', { token: known.body.token });
    expect(status.body).toMatchObject({ status: 'FAILED', reason: 'card_declined' });

    const again = await openPage('order-ngn:h4');
    expect(again.status).toBe(200);
    expect(again.body.url).toBe(opened.body.url);
    // What the last visit did is forgotten: the widget waits for this one.
    const fresh = await call(rig, 'POST', '/card-page/payment', { token: again.body.token });
    expect(fresh.body.payment).toBeNull();
    const paid = await payOnPage(alias, '4242424242424242');
    await call(rig, 'GET', `/return?reference=${paid}&alias=${alias}`);
    const now = await call(rig, 'POST', '/card-page/payment', { token: again.body.token });
    expect(now.body.payment.reference).toBe(paid);
  });

  it('hears a cancel on the page, and charges nothing', async () => {
    const opened = await openPage('order-ngn:h5');
    const alias = new URL(opened.body.url).pathname.split('/').pop() as string;
    const back = await call(rig, 'GET', `/return?alias=${alias}&cancelled=1`);
    expect(back.status).toBe(200);
    const known = await call(rig, 'POST', '/card-page/payment', { token: opened.body.token });
    expect(known.body).toEqual({ payment: null, token: null, cancelled: true });
  });

  it('does not let a forged return hand one order’s payment to another', async () => {
    const mine = await openPage('order-ngn:h6');
    const myAlias = new URL(mine.body.url).pathname.split('/').pop() as string;
    const reference = await payOnPage(myAlias, '4242424242424242');
    await call(rig, 'GET', `/return?reference=${reference}&alias=${myAlias}`);

    const theirs = await openPage('order-ngn:h7');
    const theirAlias = new URL(theirs.body.url).pathname.split('/').pop() as string;
    // The same reference claimed for another order's page: the first word stands.
    await call(rig, 'GET', `/return?reference=${reference}&alias=${theirAlias}`);
    const known = await call(rig, 'POST', '/card-page/payment', { token: theirs.body.token });
    expect(known.body.payment).toBeNull();
    // A payment the companion initiated itself is no page's either.
    const direct = await call(rig, 'GET', `/return?reference=nope&alias=unknown-alias`);
    expect(direct.status).toBe(200);
    await rig.handler.idle();
    expect(rig.paymentOutcomes.filter((outcome) => outcome.orderId === 'order-ngn:h7')).toEqual([]);
  });

  it('refuses card details on this path, and bad input to the page routes', async () => {
    const { token } = await session('order-ngn:h8');
    // As a page would send it (rawBody: the helpers route a card to /card, as the frame does).
    const direct = await call(rig, 'POST', '/initiate', {
      token,
      rawBody: JSON.stringify({ channel: 'Card', card: testCard('4242424242424242') }),
    });
    // Card details never reach /initiate, on any path: only the card frame sends them (to /card).
    expect(direct.status).toBe(400);
    expect(direct.body.error.code).toBe('invalid_request');
    const viaFrameRoute = await call(rig, 'POST', '/card', {
      token,
      body: { card: testCard('4242424242424242') },
      headers: { origin: 'null' },
    });
    expect(viaFrameRoute.status).toBe(409);
    expect(viaFrameRoute.body.error.code).toBe('channel_unavailable');
    const badReturn = await call(rig, 'POST', '/card-page', {
      token,
      body: { returnTo: 'https://elsewhere.example/shop' },
    });
    expect(badReturn.status).toBe(400);
    const notUrl = await call(rig, 'POST', '/card-page', { token, body: { returnTo: 42 } });
    expect(notUrl.status).toBe(400);
    const noToken = await call(rig, 'POST', '/card-page', { body: {} });
    expect(noToken.status).toBe(401);
    const notOpened = await call(rig, 'POST', '/card-page/payment', { token });
    expect(notOpened.status).toBe(409);
    expect(notOpened.body.error.code).toBe('not_initiated');
    const badAlias = await call(rig, 'GET', '/return?alias=%3Cscript%3E&reference=x');
    expect(badAlias.status).toBe(404);
    expect(linkCalls()).toBe(0);
  });

  it('keeps the page closed where the merchant chose direct entry', async () => {
    await rig.close();
    rig = await start({ cardEntry: 'direct' });
    const { token, checkout } = await session('order-ngn:h9');
    expect(checkout.cardEntry).toBe('direct');
    const page = await call(rig, 'POST', '/card-page', { token, body: {} });
    expect(page.status).toBe(409);
    expect(page.body.error.code).toBe('channel_unavailable');
  });

  it('stops a card tester on the hosted path too: after 5 declines on one order the page is refused, 429 with Retry-After', async () => {
    const opened = await openPage('order-ngn:h10');
    const alias = new URL(opened.body.url).pathname.split('/').pop() as string;
    for (let attempt = 0; attempt < 5; attempt++) {
      const page = attempt === 0 ? opened : await openPage('order-ngn:h10');
      expect(page.status).toBe(200);
      const reference = await payOnPage(alias, '4000000000000002');
      await call(rig, 'GET', `/return?reference=${reference}&alias=${alias}`);
      await rig.handler.runDue();
      await rig.handler.idle();
    }
    const refused = await openPage('order-ngn:h10');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The merchant heard every decline; the customer can still pay another way.
    expect(
      rig.paymentOutcomes.filter((outcome) => outcome.orderId === 'order-ngn:h10'),
    ).toHaveLength(5);
    const { token } = await session('order-ngn:h10');
    const transfer = await call(rig, 'POST', '/initiate', {
      token,
      body: { channel: 'PayByTransfer' },
    });
    expect(transfer.status).toBe(200);
  });

  it('runs the merchant’s own check (a CAPTCHA) before the page is opened', async () => {
    await rig.close();
    rig = await start({
      cardEntry: 'hosted',
      beforeCardAttempt: ({ request }) => request?.headers.get('x-captcha') === 'solved',
    });
    const { token } = await session('order-ngn:h11');
    const refused = await call(rig, 'POST', '/card-page', { token, body: {} });
    expect(refused.status).toBe(403);
    expect(linkCalls()).toBe(0);
    const allowed = await call(rig, 'POST', '/card-page', {
      token,
      body: {},
      headers: { 'x-captcha': 'solved' },
    });
    expect(allowed.status).toBe(200);
  });

  it('keeps a page’s payment adopted while another payment of the order is being made: no second charge after', async () => {
    // Adopted on its return while /initiate waits on the provider, outside the order's lock: the
    // payment's one commit finds the order's list changed since it read it, and adds to the new one.
    let duringInitiate: (() => Promise<unknown>) | undefined;
    await rig.close();
    rig = await start({
      cardEntry: 'hosted',
      fetch: async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.endsWith('/api/payment/pay/initiate') && duringInitiate) {
          const adopt = duringInitiate;
          duringInitiate = undefined;
          await adopt();
        }
        return fetch(input, init);
      },
    });
    // The return page alone tells the companion of the page's payment.
    await rig.sandbox.request('POST', '/__sandbox/config', { webhookUrl: null });
    const opened = await openPage('order-ngn:h-adopted');
    const alias = new URL(opened.body.url).pathname.split('/').pop() as string;
    const paid = await payOnPage(alias, '4242424242424242');
    duringInitiate = () => call(rig, 'GET', `/return?reference=${paid}&alias=${alias}`);
    const other = await session('order-ngn:h-adopted');
    const transfer = await call(rig, 'POST', '/initiate', {
      token: other.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(transfer.status, transfer.text).toBe(200);
    expect(duringInitiate).toBeUndefined();
    // The order's card success is still among its payments: the next start is told it is paid.
    const third = await session('order-ngn:h-adopted');
    const refused = await call(rig, 'POST', '/initiate', {
      token: third.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe('already_paid');
    expect(refused.body.payment.reference).toBe(paid);
  });
});
