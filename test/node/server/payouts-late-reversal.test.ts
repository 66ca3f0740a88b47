// A receiving bank can return a payout long after it completed (provider-api.md: "Initially
// successful, later returned by the receiving bank"). By then a busy shop has taken many more
// payments, and the payout sits deep inside the transaction list. The companion confirms a payout
// webhook with that list, so it must still find the payout and report Reversed once: a reversal
// the merchant never hears of is money returned to the wallet that no one reconciles.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createProviderClient } from '../../../src/provider/client';
import { type CompanionRig, startCompanion } from '../../helpers/companion';
import { fundTransferInput, TRANSFER_INITIATION } from '../../helpers/sandbox';

let rig: CompanionRig;

beforeEach(async () => {
  rig = await startCompanion();
});

afterEach(async () => {
  await rig.close();
});

/** `count` PayByTransfer payments left pending (no webhooks), 25 at a time. */
async function takePayments(count: number): Promise<void> {
  for (let done = 0; done < count; done += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - done) }, async () => {
        const response = await rig.sandbox.request(
          'POST',
          '/api/payment/pay/initiate',
          TRANSFER_INITIATION,
        );
        if (response.status !== 200) throw new Error(`initiate: ${await response.text()}`);
        await response.body?.cancel();
      }),
    );
  }
}

it('a reversal of a payout that 1,000 transactions have since buried is still reported', async () => {
  const client = createProviderClient({
    baseUrl: rig.sandbox.url,
    secretKey: rig.sandbox.secretKey,
  });
  await takePayments(100);
  const outcome = await client.sendFundTransfer(fundTransferInput());
  if (outcome.status !== 'accepted') throw new Error(outcome.status);
  await rig.sandbox.request('POST', '/__sandbox/clock', { advanceSeconds: 2 });
  await expect.poll(() => rig.payoutOutcomes.map((entry) => entry.status)).toEqual(['Completed']);

  // Weeks of trade later: the payout is now the 101st of 1,101 transactions.
  await takePayments(1000);
  const reversed = await rig.sandbox.request(
    'POST',
    `/__sandbox/payouts/${outcome.reference}/reverse`,
  );
  expect(reversed.status).toBe(200);

  // Wait until the reversal webhook has been delivered and the companion is done with it.
  await expect
    .poll(async () => {
      const { webhooks } = await (await rig.sandbox.request('GET', '/__sandbox/webhooks')).json();
      return webhooks.map(
        (hook: { event: string; state: string }) => `${hook.event}:${hook.state}`,
      );
    })
    .toEqual(['payout.success:delivered', 'payout.reversed:delivered']);
  await rig.handler.idle();

  expect(rig.payoutOutcomes.map((entry) => entry.status)).toEqual(['Completed', 'Reversed']);
  expect(rig.payoutOutcomes[1]).toMatchObject({
    reference: outcome.reference,
    previousStatus: 'Completed',
  });
  expect(rig.logLines.filter((line) => line.includes('does not list'))).toEqual([]);
});
