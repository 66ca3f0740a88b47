/**
 * The channels' names and one-line texts in the channel list, in every language: each channel's
 * folder exports its own (names.ts there), listed once per language here and spread into the
 * catalogues (messages/en.ts, messages/fr.ts), where a merchant may override them like any text.
 * Separate from CHANNEL_REGISTRY (index.ts) so the French chunk carries no panel. A channel of
 * CHANNELS missing here is a compile error in the picker (ui/ChannelPicker.tsx reads
 * `channel${name}` and `channel${name}Text` from the catalogue).
 */
import { bankNamesEn, bankNamesFr } from './bank/names';
import { cardNamesEn, cardNamesFr } from './card/names';
import { transferNamesEn, transferNamesFr } from './transfer/names';

export type { ChannelNames } from './channel-names';

export const channelNamesEn = {
  ...transferNamesEn,
  ...bankNamesEn,
  ...cardNamesEn,
} as const;

export const channelNamesFr = {
  ...transferNamesFr,
  ...bankNamesFr,
  ...cardNamesFr,
} as const;
