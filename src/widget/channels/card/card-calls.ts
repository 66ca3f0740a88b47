import {
  type CardCalls,
  type HttpCompanion,
  parseAuthentication,
  parseFinalization,
} from '../../../flow/companion';
import { COMPANION_PATHS } from '../../../protocol/contract';

/**
 * The card's calls over the companion's HTTP port. They live in the card chunk, with the checks
 * of their answers, so customers who never pay by card never download them.
 */
export function cardCalls(companion: HttpCompanion): CardCalls {
  return {
    authenticate: async (token) =>
      parseAuthentication(
        await companion.post(COMPANION_PATHS.authenticate, token),
        companion.origin,
      ),
    finalize: async (token) =>
      parseFinalization(await companion.post(COMPANION_PATHS.finalize, token)),
  };
}
