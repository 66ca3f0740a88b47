// Payout webhooks through the whole server side: a fund transfer sent with createProviderClient,
// the sandbox settling it on its clock and posting webhooks to a real companion, which confirms
// each one with the transaction list before calling onPayoutOutcome. The merchant must see each
// state once, in an order provider-api.md allows (Pending → Completed or Failed; Completed →
// Reversed), however the webhooks arrive: twice, out of order, or forged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PayoutStatus } from '../../../src/protocol';
import {
  createProviderClient,
  type FundTransferInput,
  type ProviderClient,
} from '../../../src/provider/client';
import type { PayoutOutcome } from '../../../src/server';
import { type CompanionRig, control, startCompanion } from '../../helpers/companion';
import { fundTransferInput } from '../../helpers/sandbox';

const NGN_START = 1_000_000_000;
const EDGES = new Set(['Pending→Completed', 'Pending→Failed', 'Completed→Reversed']);

let rig: CompanionRig;
let client: ProviderClient;

beforeEach(async () => {
  rig = await startCompanion();
  client = createProviderClient({
    baseUrl: rig.sandbox.url,
    secretKey: rig.sandbox.secretKey,
    backoffMs: 5,
  });
});

afterEach(async () => {
  await rig.close();
});

/** Sends a transfer and returns its provider reference and tenantReference. */
async function send(overrides: Partial<FundTransferInput> = {}) {
  const input = fundTransferInput(overrides);
  const outcome = await client.sendFundTransfer(input);
  if (outcome.status !== 'accepted') throw new Error(`transfer not accepted: ${outcome.status}`);
  return { reference: outcome.reference, tenantReference: input.tenantReference };
}

async function advance(seconds: number): Promise<void> {
  await control(rig, 'POST', '/__sandbox/clock', { advanceSeconds: seconds });
}

async function webhookFaults(steps: unknown[]): Promise<void> {
  await control(rig, 'POST', '/__sandbox/config', { faults: [{ endpoint: 'webhook', steps }] });
}

/**
 * Waits until the sandbox has delivered at least `count` webhooks and holds none back, then
 * until the companion has finished confirming them: after this, nothing more is on its way.
 */
async function quiet(count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const { webhooks } = await control(rig, 'GET', '/__sandbox/webhooks');
        const delivered = webhooks.filter((hook: { state: string }) => hook.state === 'delivered');
        const waiting = webhooks.filter((hook: { state: string }) => hook.state === 'pending');
        return delivered.length >= count && waiting.length === 0;
      },
      // Generous: under a full parallel test run a held delivery can take seconds to be let go.
      { timeout: 12_000, interval: 20 },
    )
    .toBe(true);
  await rig.handler.idle();
}

function outcomesOf(reference: string): PayoutOutcome[] {
  return rig.payoutOutcomes.filter((outcome) => outcome.reference === reference);
}

/** Each state once, each move an edge of provider-api.md, each previousStatus the last one. */
function expectLegalHistory(reference: string, statuses: PayoutStatus[]): void {
  const history = outcomesOf(reference);
  expect(history.map((outcome) => outcome.status)).toEqual(statuses);
  let at: PayoutStatus = 'Pending';
  for (const [index, outcome] of history.entries()) {
    expect(EDGES.has(`${at}→${outcome.status}`), `${at}→${outcome.status}`).toBe(true);
    if (index === 0) expect([null, 'Pending']).toContain(outcome.previousStatus);
    else expect(outcome.previousStatus).toBe(at);
    at = outcome.status;
  }
}

async function balance(): Promise<number> {
  return (await control(rig, 'GET', '/__sandbox/wallets')).wallets.NGN.balanceMinor;
}

describe('one outcome per state', () => {
  it('a settled transfer reaches onPayoutOutcome once as Completed, confirmed with the list', async () => {
    const payout = await send();
    await rig.handler.idle();
    expect(rig.payoutOutcomes).toEqual([]);

    await advance(2);
    await expect.poll(() => outcomesOf(payout.reference).length).toBe(1);
    await quiet(1);
    expect(rig.payoutOutcomes).toHaveLength(1);
    expect(rig.payoutOutcomes[0]).toEqual({
      reference: payout.reference,
      tenantReference: payout.tenantReference,
      status: 'Completed',
      previousStatus: expect.toBeOneOf([null, 'Pending']),
      amount: { amountMinor: 150_000, currency: 'NGN' },
      reason: null,
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // A webhook is a hint: the companion asked the provider's list before reporting.
    expect(rig.providerCalls.some((entry) => entry.path.startsWith('/v1/api/transactions'))).toBe(
      true,
    );
  });

  it('a transfer to the failing account reaches onPayoutOutcome once as Failed', async () => {
    const payout = await send({
      beneficiary: { accountName: 'Nobody', accountNumber: '0000000000' },
    });
    await advance(2);
    await expect.poll(() => outcomesOf(payout.reference).length).toBe(1);
    await quiet(1);
    expectLegalHistory(payout.reference, ['Failed']);
    expect(outcomesOf(payout.reference)[0]?.tenantReference).toBe(payout.tenantReference);
    // The webhook's reason and the listed amount reach the merchant (issue 14 builds on it).
    expect(outcomesOf(payout.reference)[0]).toMatchObject({
      reason: 'Invalid beneficiary account details.',
      amount: { amountMinor: 150_000, currency: 'NGN' },
    });
    expect(await balance()).toBe(NGN_START);
  });

  it('a reversal after success is reported as Reversed, after Completed', async () => {
    const payout = await send();
    await advance(2);
    await expect.poll(() => outcomesOf(payout.reference).length).toBe(1);
    await control(rig, 'POST', `/__sandbox/payouts/${payout.reference}/reverse`);
    await expect.poll(() => outcomesOf(payout.reference).length).toBe(2);
    await quiet(2);
    expectLegalHistory(payout.reference, ['Completed', 'Reversed']);
    expect(await balance()).toBe(NGN_START);
  });

  it('a reversal right after settlement, webhooks racing, still gives Completed then Reversed', async () => {
    const payout = await send();
    await advance(2);
    await control(rig, 'POST', `/__sandbox/payouts/${payout.reference}/reverse`);
    await quiet(2);
    expectLegalHistory(payout.reference, ['Completed', 'Reversed']);
  });

  it('several transfers settling together get one outcome each', async () => {
    const payouts = await Promise.all([
      send(),
      send(),
      send({ beneficiary: { accountName: 'Nobody', accountNumber: '0000000000' } }),
      send(),
    ]);
    await advance(2);
    await quiet(4);
    expect(rig.payoutOutcomes).toHaveLength(4);
    expectLegalHistory(payouts[0]?.reference ?? '', ['Completed']);
    expectLegalHistory(payouts[1]?.reference ?? '', ['Completed']);
    expectLegalHistory(payouts[2]?.reference ?? '', ['Failed']);
    expectLegalHistory(payouts[3]?.reference ?? '', ['Completed']);
  });
});

describe('webhooks delivered twice or out of order', () => {
  it('duplicated success and reversal webhooks still give one Completed and one Reversed', async () => {
    await webhookFaults([{ type: 'duplicate' }, { type: 'duplicate' }]);
    const payout = await send();
    await advance(2);
    await quiet(2);
    await control(rig, 'POST', `/__sandbox/payouts/${payout.reference}/reverse`);
    await quiet(4);
    // The fault struck: every event went out twice.
    const { webhooks } = await control(rig, 'GET', '/__sandbox/webhooks');
    expect(webhooks).toHaveLength(4);
    expectLegalHistory(payout.reference, ['Completed', 'Reversed']);
    expect(rig.payoutOutcomes).toHaveLength(2);
  });

  it('a duplicated failure webhook gives one Failed', async () => {
    await webhookFaults([{ type: 'duplicate' }]);
    const payout = await send({
      beneficiary: { accountName: 'Nobody', accountNumber: '0000000000' },
    });
    await advance(2);
    await quiet(2);
    expectLegalHistory(payout.reference, ['Failed']);
    expect(rig.payoutOutcomes).toHaveLength(1);
  });

  it('a success held back until after the reversal still gives Completed, then Reversed, once each', async () => {
    await webhookFaults([{ type: 'outOfOrder' }]);
    const payout = await send();
    await advance(2);
    // The success webhook is held: nothing has reached the merchant yet.
    await rig.handler.idle();
    const { webhooks: held } = await control(rig, 'GET', '/__sandbox/webhooks');
    expect(held.map((hook: { state: string }) => hook.state)).toEqual(['pending']);
    expect(rig.payoutOutcomes).toEqual([]);

    await control(rig, 'POST', `/__sandbox/payouts/${payout.reference}/reverse`);
    await quiet(2);
    expectLegalHistory(payout.reference, ['Completed', 'Reversed']);
    expect(rig.payoutOutcomes).toHaveLength(2);
  });

  it("one payout's failure held behind another's success: one outcome each", async () => {
    await webhookFaults([{ type: 'outOfOrder' }]);
    const failing = await send({
      beneficiary: { accountName: 'Nobody', accountNumber: '0000000000' },
    });
    const succeeding = await send();
    await advance(2);
    await quiet(2);
    expectLegalHistory(failing.reference, ['Failed']);
    expectLegalHistory(succeeding.reference, ['Completed']);
    expect(rig.payoutOutcomes).toHaveLength(2);
  });
});

describe('webhooks the provider does not back', () => {
  async function postWebhook(body: unknown): Promise<Response> {
    return fetch(`${rig.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  it('a forged payout.success for a reference the provider does not list: no outcome, a warning', async () => {
    const forged = 'PO-forged-0001';
    const response = await postWebhook({
      id: 'evt_forged_1',
      event: 'payout.success',
      createdAt: new Date().toISOString(),
      data: {
        reference: forged,
        tenantReference: 'refund-forged',
        status: 'Completed',
        amount: '150000',
        currency: 'NGN',
      },
    });
    expect(response.status).toBe(200);
    await rig.handler.idle();
    expect(rig.payoutOutcomes).toEqual([]);
    const warnings = rig.logLines.filter(
      (line) => line.startsWith('warn ') && line.includes(forged),
    );
    expect(warnings).toHaveLength(1);
    expect(rig.providerCalls.some((entry) => entry.path.startsWith('/v1/api/transactions'))).toBe(
      true,
    );
    expect(rig.logLines.join('\n')).not.toContain(rig.sandbox.secretKey);
  });

  it('a forged payout.success for a payout still Pending reports nothing; the real settlement does', async () => {
    const payout = await send();
    const response = await postWebhook({
      id: 'evt_forged_2',
      event: 'payout.success',
      data: {
        reference: payout.reference,
        tenantReference: payout.tenantReference,
        status: 'Completed',
        amount: '150000',
        currency: 'NGN',
      },
    });
    expect(response.status).toBe(200);
    await rig.handler.idle();
    expect(rig.payoutOutcomes).toEqual([]);

    await advance(2);
    await quiet(1);
    expectLegalHistory(payout.reference, ['Completed']);
  });

  it('a forged payout.reversed for a payout that only completed reports no reversal', async () => {
    const payout = await send();
    await advance(2);
    await quiet(1);
    const response = await postWebhook({
      id: 'evt_forged_3',
      event: 'payout.reversed',
      data: {
        reference: payout.reference,
        tenantReference: payout.tenantReference,
        status: 'Reversed',
        amount: '150000',
        currency: 'NGN',
      },
    });
    expect(response.status).toBe(200);
    await rig.handler.idle();
    expectLegalHistory(payout.reference, ['Completed']);
  });
});
