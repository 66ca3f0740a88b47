/**
 * The channels' texts in the dialog's catalogues, in every language: each channel's folder
 * exports its names in the channel list (names.ts there) and its panel's texts (messages.ts
 * there, for a panel whose texts are not in a chunk of its own as the card's are); they are
 * listed once per language here and spread into messages/en.ts and messages/fr.ts, where a
 * merchant may override them like any text. Separate from CHANNEL_REGISTRY (index.ts) so the
 * French chunk carries no panel. A channel of CHANNELS missing here is a compile error in the
 * picker (ui/ChannelPicker.tsx reads `channel${name}` and `channel${name}Text` from the
 * catalogue), and French texts missing a key of the English ones in messages/fr.ts.
 */
export { bankMessagesEn, bankMessagesFr } from './bank/messages';

import { bankNamesEn, bankNamesFr } from './bank/names';
import { cardNamesEn, cardNamesFr } from './card/names';

export { transferMessagesEn, transferMessagesFr } from './transfer/messages';

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
