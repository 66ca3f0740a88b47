/**
 * The registry of channels: one line per channel of the protocol's CHANNELS, each the descriptor
 * its folder exports. A channel of CHANNELS without a line here is a compile error.
 */
import { CHANNELS, type Channel } from '../../protocol/types';
import { bank } from './bank';
import { card } from './card';
import type { ChannelDescriptor } from './channel';
import { transfer } from './transfer';

export type { ChannelDescriptor, PanelContext, PanelProps } from './channel';

export const CHANNEL_REGISTRY: { readonly [C in Channel]: ChannelDescriptor<C> } = {
  PayByTransfer: transfer,
  PayByAccount: bank,
  Card: card,
};

/** The channels this build can take a customer through, in the protocol's order. */
export const SUPPORTED_CHANNELS: readonly Channel[] = CHANNELS.filter(
  (name) => CHANNEL_REGISTRY[name].name === name,
);
