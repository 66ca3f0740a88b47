/**
 * The companion's registry of channels: one line per channel of the protocol's CHANNELS, each the
 * ServerChannel of its module here. A channel of CHANNELS without a line is a compile error.
 */
import type { Channel } from '../../../protocol';
import { bank } from './bank';
import { card } from './card';
import type { ServerChannel } from './channel';
import { transfer } from './transfer';

export { CARD } from './card';
export type { CommitFacts, ServerChannel } from './channel';

export const SERVER_CHANNELS = {
  PayByTransfer: transfer,
  PayByAccount: bank,
  Card: card,
} as const satisfies Record<Channel, ServerChannel>;

/** The channel of this name (every name the companion's schemas let through is here). */
export function serverChannel(name: Channel): ServerChannel {
  return SERVER_CHANNELS[name];
}
