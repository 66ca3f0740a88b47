import { localTexts } from '../messages/local-texts';

/**
 * The QR hand-off's texts, in the QR chunk: only a customer who asks to pay on their phone
 * downloads them. A merchant may replace either through `messages`.
 */
export const qrMessagesEn = {
  qrLabel: 'QR code to pay on your phone',
  phoneText: 'Scan with your phone to approve in your banking app.',
} as const;

export type QrMessages = Readonly<Record<keyof typeof qrMessagesEn, string>>;

export const qrMessagesFr: QrMessages = {
  qrLabel: 'Code QR pour payer sur votre téléphone',
  phoneText:
    'Scannez avec votre téléphone et validez dans votre application bancaire. Cette page se met à jour toute seule.',
};

/** The texts for a locale, the merchant's on top. */
export function qrMessages(locale: string, overrides: Partial<Record<string, string>>): QrMessages {
  return localTexts(qrMessagesEn, qrMessagesFr, locale, overrides);
}
