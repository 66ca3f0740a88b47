import type { ChannelNames } from '../channel-names';

/** PayByAccount in the channel list, in English: its name and what it is. */
export const bankNamesEn = {
  channelPayByAccount: 'Pay from your bank',
  channelPayByAccountText: 'Approve it in your banking app.',
} as const satisfies ChannelNames<'PayByAccount'>;

/** PayByAccount dans la liste des moyens de paiement, en français. */
export const bankNamesFr = {
  channelPayByAccount: 'Payer depuis votre banque',
  channelPayByAccountText: 'Validez le paiement dans votre application bancaire.',
} as const satisfies ChannelNames<'PayByAccount'>;
