// Issue 10: the companion killed with SIGKILL in the middle of payments and started again on the
// same SQLite file forgets nothing; issue 22: the same on one PostgreSQL database (a real server
// started here). A transfer with a browser waiting, a bank payment between the
// bank's page and the return, a card at its challenge; payments completed while it was down and
// one reported just before the crash: every outcome is reported exactly once, with its order, the
// waiting browser's stream resumes from its Last-Event-ID, a new session for the paid order says
// paid, the bank's return page still finds its way back and the challenge still waits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { beginPayment, callCompanion } from '../../helpers/companion-http';
import { type CompanionProcess, startCompanionProcess } from '../../helpers/companion-process';
import { type EventStream, openEventStream } from '../../helpers/event-stream';
import { hasPostgresServer, type RunningPostgres, startPostgres } from '../../helpers/postgres';
import { type Sandbox, startSandbox, testCard } from '../../helpers/sandbox';

let folder = '';
// Each store's run has a sandbox of its own: its clock moves with that run's companions.
let sandbox: Sandbox;
const sandboxes: Sandbox[] = [];
let postgres: RunningPostgres | undefined;
const processes: CompanionProcess[] = [];
const streams: EventStream[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'paydrop-restart-'));
});
afterAll(async () => {
  for (const stream of streams) await stream.close();
  for (const companion of processes) await companion.kill();
  for (const each of sandboxes) await each.close();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function control(method: string, path: string, body?: unknown) {
  const answer = await sandbox.request(method, path, body);
  const text = await answer.text();
  expect(answer.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

/** `store`: as startCompanionProcess takes it (`sqlite:<path>`, `postgres:<url>`). */
async function start(store: string, previous?: CompanionProcess): Promise<CompanionProcess> {
  const companion = await startCompanionProcess({
    store,
    sandbox,
    ...(previous ? { port: previous.port, clockOffsetMs: previous.clockOffsetMs } : {}),
  });
  processes.push(companion);
  return companion;
}

/** Both clocks, the provider's and the companion's, as if `seconds` had passed. */
async function advance(companion: CompanionProcess, seconds: number) {
  await control('POST', '/__sandbox/clock', { advanceSeconds: seconds });
  await companion.advance(seconds);
}

const outcomesOf = (...companions: CompanionProcess[]) =>
  companions.flatMap((companion) => companion.paymentOutcomes);

async function forgetsNothing(store: string): Promise<void> {
  sandbox = await startSandbox();
  sandboxes.push(sandbox);
  const first = await start(store);
  await control('POST', '/__sandbox/config', { webhookUrl: `${first.url}/webhooks` });

  // Reported just before the crash, its browser watching.
  const reportedBefore = await beginPayment(first.url, 'order-ngn:before', 'PayByTransfer');
  const beforeStream = await openEventStream(first.url, reportedBefore.token);
  streams.push(beforeStream);
  await control('POST', `/__sandbox/payments/${reportedBefore.reference}/transfer`);
  await beforeStream.waitFor((event) => event.data.status === 'SUCCESSFUL', 15_000);
  await expect
    .poll(() => first.paymentOutcomes.length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);

  // In flight at the crash: a transfer with its browser waiting, one nobody watches, a bank
  // payment whose customer is at the bank, a card at its challenge.
  const transfer = await beginPayment(first.url, 'order-ngn:waiting', 'PayByTransfer');
  const waiting = await openEventStream(first.url, transfer.token);
  streams.push(waiting);
  const unwatched = await beginPayment(first.url, 'order-ngn:unwatched', 'PayByTransfer');
  const returnTo = `${first.origin}/shop/thanks-for-order-gbp-bank`;
  const bank = await beginPayment(first.url, 'order-gbp:bank', 'PayByAccount', { returnTo });
  const card = await beginPayment(first.url, 'order-usd:card', 'Card', {
    card: testCard('4000000000003220'),
  });
  const authenticated = await callCompanion(first.url, 'POST', '/authenticate', {
    token: card.token,
  });
  expect(authenticated.status, authenticated.text).toBe(200);
  expect(authenticated.body.authenticationRequired).toBe(true);

  await first.kill();
  // The browser's connection is cut with the process: it will reconnect with Last-Event-ID.
  await expect.poll(() => waiting.ended()).toBe(true);

  // While it is down: the transfers are paid and the bank approves; their webhooks find nobody.
  await control('POST', `/__sandbox/payments/${transfer.reference}/transfer`);
  await control('POST', `/__sandbox/payments/${unwatched.reference}/transfer`);
  await control('POST', `/__sandbox/payments/${bank.reference}/bank`, { approve: true });

  const second = await start(store, first);

  // The card's challenge page still finds the verification waiting, and its frame the markup.
  const challenge = await fetch(
    `${second.url}/challenge?token=${encodeURIComponent(card.token)}`,
  ).then(async (response) => ({ status: response.status, text: await response.text() }));
  expect(challenge.status, challenge.text).toBe(200);
  expect(challenge.text).not.toContain('No verification is waiting');
  const frameUrl = /"(http[^"]*\/challenge\/frame\?token=[^"]+)"/.exec(challenge.text)?.[1];
  expect(frameUrl, challenge.text).toBeDefined();
  const frame = await fetch(frameUrl as string).then((response) => response.text());
  expect(frame).toContain(`/pages/challenge/${card.reference}`);

  // The bank's return page still knows where the customer goes back to.
  const returned = await fetch(
    `${second.url}/return?reference=${encodeURIComponent(bank.reference)}`,
  ).then(async (response) => ({ status: response.status, text: await response.text() }));
  expect(returned.status).toBe(200);
  expect(returned.text).toContain('/shop/thanks-for-order-gbp-bank');

  // The waiting browser reconnects, with the Last-Event-ID it had (none: nothing came yet).
  const resumed = await openEventStream(second.url, transfer.token, waiting.lastEventId());
  streams.push(resumed);
  expect(resumed.status).toBe(200);
  // The browser that saw its outcome before the crash reconnects past it: nothing again.
  const beforeResumed = await openEventStream(
    second.url,
    reportedBefore.token,
    beforeStream.lastEventId(),
  );
  streams.push(beforeResumed);

  // The customer passes the challenge and the widget finalizes, on the new process.
  const passed = await fetch(`${sandbox.url}/pages/challenge/${card.reference}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code: '123456' }),
  });
  expect(passed.ok).toBe(true);
  const finalized = await callCompanion(second.url, 'POST', '/finalize', { token: card.token });
  expect(finalized.status, finalized.text).toBe(200);

  // Reconciliation finds what no webhook told it (the webhooks came while it was down).
  await advance(second, 61);
  const expected = new Map([
    [reportedBefore.reference, 'order-ngn:before'],
    [transfer.reference, 'order-ngn:waiting'],
    [unwatched.reference, 'order-ngn:unwatched'],
    [bank.reference, 'order-gbp:bank'],
    [card.reference, 'order-usd:card'],
  ]);
  await expect
    .poll(() => new Set(outcomesOf(first, second).map((outcome) => outcome.reference)).size, {
      timeout: 15_000,
    })
    .toBe(expected.size);
  await resumed.waitFor((event) => event.data.status === 'SUCCESSFUL', 10_000);

  // Time passes: jobs run again, and still nothing is reported twice.
  await advance(second, 180);
  // Each advance returns once the work it made due has run and its outcomes have been read.
  await advance(second, 3600);
  const outcomes = outcomesOf(first, second);
  expect(
    outcomes
      .map((outcome) => [outcome.reference, outcome.orderId, outcome.status])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  ).toEqual(
    [...expected]
      .map(([reference, orderId]) => [reference, orderId, 'SUCCESSFUL'])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
  expect(outcomes.every((outcome) => outcome.duplicate === false)).toBe(true);
  // Only the one reported before the crash came from the first process.
  expect(first.paymentOutcomes.map((outcome) => outcome.reference)).toEqual([
    reportedBefore.reference,
  ]);

  // The resumed stream got the outcome once; the other got nothing it had seen.
  expect(resumed.events.filter((event) => event.data.status === 'SUCCESSFUL')).toHaveLength(1);
  expect(beforeResumed.events).toEqual([]);

  // A new session for a paid order says paid (the outcome stayed known), never a fresh account.
  const session = await callCompanion(second.url, 'POST', '/session', {
    body: { order: 'order-ngn:waiting' },
  });
  expect(session.status, session.text).toBe(200);
  expect(session.body.payment).toMatchObject({
    reference: transfer.reference,
    status: 'SUCCESSFUL',
  });
  const again = await callCompanion(second.url, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  expect(again.body?.error?.code, again.text).toBe('already_paid');
  expect(second.log.join('')).not.toMatch(/^error /m);
}

it('forgets nothing when killed with SIGKILL mid-payment and started again on its SQLite file', async () => {
  await forgetsNothing(`sqlite:${join(folder, 'checkout.db')}`);
});

it.skipIf(!hasPostgresServer())(
  'killed with kill -9 mid-payment and restarted on the same PostgreSQL database: every outcome reported exactly once with its order, a paid order never offered again',
  async () => {
    postgres = await startPostgres();
    await forgetsNothing(`postgres:${await postgres.createDatabase('restart')}`);
  },
  90_000,
);
