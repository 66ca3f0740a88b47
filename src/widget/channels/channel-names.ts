import type { Channel } from '../../protocol/types';

/** A channel's entries in a catalogue: its name in the channel list, and what it is. */
export type ChannelNames<C extends Channel> = Readonly<
  Record<`channel${C}` | `channel${C}Text`, string>
>;
