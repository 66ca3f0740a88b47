/**
 * The card frame's own texts, by language: the frame is a document of its own and cannot borrow
 * the dialog's catalogue. `{length}` is filled in at run time.
 */
const en = {
  formLabel: 'Card details',
  numberLabel: 'Card number',
  expiryLabel: 'Expiry date (MM / YY)',
  cvcLabel: 'Security code',
  nameLabel: 'Name on card',
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'This card number is not valid. Check it and try again.',
  expiryInvalid: 'Enter the expiry date as it is on your card, for example 08 / 29.',
  expiryPast: 'This card has expired. Check the date or use another card.',
  cvcInvalid: 'Enter the {length}-digit security code.',
  nameMissing: 'Enter the name as it is on your card.',
  errorsFound: 'Some card details need correcting.',
  brandVisa: 'Visa',
  brandMastercard: 'Mastercard',
  brandAmex: 'American Express',
  brandVerve: 'Verve',
  brandDiscover: 'Discover',
};

export type CardFrameTexts = Readonly<Record<keyof typeof en, string>>;

const fr: CardFrameTexts = {
  formLabel: 'Données de la carte',
  numberLabel: 'Numéro de carte',
  expiryLabel: 'Date d’expiration (MM / AA)',
  cvcLabel: 'Code de sécurité',
  nameLabel: 'Nom sur la carte',
  numberIncomplete: 'Le numéro de carte est incomplet.',
  numberInvalid: 'Ce numéro de carte n’est pas valide. Vérifiez-le et réessayez.',
  expiryInvalid: 'Saisissez la date d’expiration indiquée sur votre carte, par exemple 08 / 29.',
  expiryPast: 'Cette carte a expiré. Vérifiez la date ou utilisez une autre carte.',
  cvcInvalid: 'Saisissez le code de sécurité à {length} chiffres.',
  nameMissing: 'Saisissez le nom tel qu’il figure sur votre carte.',
  errorsFound: 'Certaines données de la carte sont à corriger.',
  brandVisa: 'Visa',
  brandMastercard: 'Mastercard',
  brandAmex: 'American Express',
  brandVerve: 'Verve',
  brandDiscover: 'Discover',
};

/** The texts for a locale: French for fr and fr-*, English otherwise (as the dialog decides). */
export function cardFrameTexts(locale: string): CardFrameTexts {
  return /^fr(-|$)/i.test(locale) ? fr : en;
}
