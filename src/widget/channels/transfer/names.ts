import type { ChannelNames } from '../channel-names';

/** PayByTransfer in the channel list, in English: its name and what it is. */
export const transferNamesEn = {
  channelPayByTransfer: 'Bank transfer',
  channelPayByTransferText: 'To a one-time account, from your banking app.',
} as const satisfies ChannelNames<'PayByTransfer'>;

/** PayByTransfer dans la liste des moyens de paiement, en français. */
export const transferNamesFr = {
  channelPayByTransfer: 'Virement bancaire',
  channelPayByTransferText: 'Vers un compte à usage unique, depuis votre application bancaire.',
} as const satisfies ChannelNames<'PayByTransfer'>;
