/**
 * PayByTransfer at the companion: the provider must send the account to pay into; nobody has
 * paid into it until the money arrives, so the customer may choose another way meanwhile (should
 * both arrive, the second is reported as a duplicate).
 */
import type { ServerChannel } from './channel';

export const transfer: ServerChannel = {
  cardTesting: false,
  startedByCardFrame: false,
  refusedOnInitiate: () => null,
  initiation: () => ({}),
  lacks: (initiation) =>
    initiation.virtualAccount === null ? 'The provider sent no account to pay into.' : null,
  committed: async () => false,
  resumesUncommitted: true,
};
