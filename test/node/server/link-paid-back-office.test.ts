// A one-time payment link created in the back office and paid through the checkout shows as Paid in
// the back office's list (issue 14: "a paid link's status is never visible"), when both handlers
// share one store, as the demo's do.
import { afterEach, expect, it } from 'vitest';
import { serve } from '../../../src/node/serve';
import type { ResolvedOrder } from '../../../src/server';
import { createMemoryStore, createPayoutsHandler } from '../../../src/server';
import {
  type CompanionRig,
  companionCall as call,
  control,
  startCompanion,
  webhooksSettled,
} from '../../helpers/companion';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('shows a one-time link paid through the checkout as Paid, and leaves an unpaid one New', async () => {
  const store = createMemoryStore();
  const links = new Map<string, ResolvedOrder>();
  const rig: CompanionRig = await startCompanion({
    store,
    resolveLink: (alias) => links.get(alias) ?? null,
  });
  cleanups.push(() => rig.close());
  const backOffice = createPayoutsHandler({
    secretKey: rig.sandbox.secretKey,
    baseUrl: rig.sandbox.url,
    store,
    authorize: () => true,
    logger: { warn: () => {}, error: () => {} },
  });
  const running = await serve(backOffice);
  cleanups.push(async () => {
    backOffice.close();
    await running.close();
  });
  const office = `${running.url}/api/back-office`;
  async function createLink(name: string): Promise<string> {
    const answer = await fetch(`${office}/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: running.url },
      body: JSON.stringify({ name, linkType: 'OneTime', currency: 'NGN', amountMinor: 500_000 }),
    });
    expect(answer.status).toBe(201);
    const { link } = await answer.json();
    links.set(link.alias, { amountMinor: 500_000, currency: 'NGN', description: name });
    return link.alias;
  }
  const paidAlias = await createLink('Invoice 1042');
  const unpaidAlias = await createLink('Invoice 1043');

  const session = await call(rig, 'POST', '/session', { body: { link: paidAlias } });
  const initiated = await call(rig, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  expect(initiated.status, initiated.text).toBe(200);
  await control(rig, 'POST', `/__sandbox/payments/${initiated.body.payment.reference}/transfer`);
  await webhooksSettled(rig);
  expect(
    rig.paymentOutcomes.some((outcome) => outcome.linkAlias === paidAlias),
    'the link payment was reported',
  ).toBe(true);

  const listed = await (await fetch(`${office}/links`)).json();
  const statusOf = (alias: string) =>
    listed.links.find((link: { alias: string }) => link.alias === alias)?.status;
  expect(statusOf(paidAlias)).toBe('Paid');
  expect(statusOf(unpaidAlias)).toBe('New');
});
