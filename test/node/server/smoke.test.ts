import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  type CompanionRig,
  companionCall,
  startCompanion,
  startPayment,
} from '../../helpers/companion';

let rig: CompanionRig;
beforeEach(async () => {
  rig = await startCompanion();
});
afterEach(async () => {
  await rig.close();
});

it('takes a bank transfer from session to the webhook-pushed outcome', async () => {
  const { token, payment } = await startPayment(rig, 'order-ngn:1', 'PayByTransfer');
  expect(payment.amount).toEqual({ amountMinor: 2_500_050, currency: 'NGN' });
  await rig.sandbox.request('POST', `/__sandbox/payments/${payment.reference}/transfer`);
  await rig.handler.idle();
  await expect.poll(() => rig.paymentOutcomes.length).toBe(1);
  expect(rig.paymentOutcomes[0]).toMatchObject({
    reference: payment.reference,
    status: 'SUCCESSFUL',
    orderId: 'order-ngn:1',
    amountMatches: true,
  });
  const status = await companionCall(rig, 'GET', '/status', { token });
  expect(status.body).toMatchObject({ reference: payment.reference, status: 'SUCCESSFUL' });
});
