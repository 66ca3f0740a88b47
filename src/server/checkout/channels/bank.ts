/**
 * PayByAccount at the companion: the bank sends the customer back to the companion's return page
 * (in a popup its page closes itself instead); the provider must send the bank's link; once the
 * customer came back, the payment is settling at the bank.
 */
import type { ServerChannel } from './channel';

export const bank: ServerChannel = {
  cardTesting: false,
  startedByCardFrame: false,
  refusedOnInitiate: () => null,
  initiation: (publicUrl, redirect) => ({
    returnUrl: `${publicUrl}/return`,
    redirect: redirect ?? true,
  }),
  lacks: (initiation) =>
    initiation.bankAuthUrl === null ? 'The provider sent no bank link for this payment.' : null,
  committed: (facts) => facts.returned(),
  resumesUncommitted: true,
};
