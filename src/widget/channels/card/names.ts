import type { ChannelNames } from '../channel-names';

/** Card in the channel list, in English: its name and what it is. */
export const cardNamesEn = {
  channelCard: 'Card',
  channelCardText: 'Debit or credit card.',
} as const satisfies ChannelNames<'Card'>;

/** Card dans la liste des moyens de paiement, en français. */
export const cardNamesFr = {
  channelCard: 'Carte',
  channelCardText: 'Carte de débit ou de crédit.',
} as const satisfies ChannelNames<'Card'>;
