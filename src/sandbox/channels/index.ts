/**
 * The sandbox's registry of channels: one line per channel of the protocol's CHANNELS, each the
 * SandboxChannel its folder exports. A channel of CHANNELS without a line here is a compile
 * error; a name that is not here is refused, never taken for another channel.
 */
import type { Channel } from '../../protocol';
import { SandboxRefusal } from '../refusal';
import { bank } from './bank';
import { card } from './card';
import type { SandboxChannel } from './channel';
import { transfer } from './transfer';

export type { PaymentMoves, SandboxChannel } from './channel';

export const SANDBOX_CHANNELS = {
  PayByTransfer: transfer,
  PayByAccount: bank,
  Card: card,
} as const satisfies Record<Channel, SandboxChannel>;

/** The channels this sandbox takes, in the protocol's order of its registry. */
export const SANDBOX_CHANNEL_NAMES = Object.keys(SANDBOX_CHANNELS) as Channel[];

/** True when the sandbox knows this channel. */
export function isSandboxChannel(name: string): name is Channel {
  return Object.hasOwn(SANDBOX_CHANNELS, name);
}

/**
 * The channel of this name, as the provider would refuse one it does not offer: a 400 that names
 * the channels it does.
 */
export function sandboxChannel(name: string): SandboxChannel {
  if (!isSandboxChannel(name)) {
    throw new SandboxRefusal(
      400,
      `channel "${name}" is not a channel this provider offers (${SANDBOX_CHANNEL_NAMES.join(', ')}).`,
    );
  }
  return SANDBOX_CHANNELS[name];
}
