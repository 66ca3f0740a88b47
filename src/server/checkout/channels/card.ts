/**
 * Card at the companion: started by the card frame (POST /card) where the companion takes cards
 * directly, or on the provider's hosted page (POST /card-page, hosted-card.ts) otherwise; counted
 * against the card-testing limits (issue 20); committed once finalize was sent and not refused.
 * A card whose challenge was left unfinished is never charged, so it is not picked up again.
 */
import type { Channel } from '../../../protocol';
import type { ServerChannel } from './channel';

/** The card's name, for the card frame and the hosted card page, which are the card's own. */
export const CARD = 'Card' as const satisfies Channel;

export const card: ServerChannel = {
  cardTesting: true,
  startedByCardFrame: true,
  refusedOnInitiate: (claims) =>
    claims.cardEntry === 'direct'
      ? null
      : 'Card is paid on the provider’s page in this checkout: open it with POST /card-page.',
  initiation: () => ({}),
  lacks: () => null,
  committed: (facts) => facts.finalizedUnrefused(),
  resumesUncommitted: false,
};
