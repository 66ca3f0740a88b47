/**
 * The card step's texts (the fields' own are the card frame's, src/card-frame/messages.ts). They travel in the card chunk, not in the main catalogue, so customers
 * who never choose Card never download them. `{name}` marks a value filled in at run time.
 */
export const cardMessagesEn = {
  cardTitle: 'Pay by card',
  cardRefused: 'Your card details were refused. Check them and try again.',
  processing: 'Processing your payment…',
  challengeTitle: 'Verify it’s you',
  challengeText: 'Your card issuer asks you to confirm this payment.',
  challengeFrameLabel: 'Verification by your card issuer',
  cardFrameLabel: 'Card details',
  numberLabel: 'Card number',
  expiryLabel: 'Expiry date (MM / YY)',
  cvcLabel: 'Security code',
  nameLabel: 'Name on card',
  pay: 'Pay {amount}',
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'This card number is not valid. Check it and try again.',
  expiryInvalid: 'Enter the expiry date as it is on your card, for example 08 / 29.',
  expiryPast: 'This card has expired. Check the date or use another card.',
  cvcInvalid: 'Enter the {length}-digit security code.',
  nameMissing: 'Enter the name as it is on your card.',
  brandVisa: 'Visa',
  brandMastercard: 'Mastercard',
  brandAmex: 'American Express',
  brandVerve: 'Verve',
  brandDiscover: 'Discover',
} as const;

export type CardMessageKey = keyof typeof cardMessagesEn;

/**
 * Every text the card fields show; a merchant may replace any of them.
 * @example { ...cardMessagesEn, nameLabel: 'Cardholder name' }
 */
export type CardMessages = Readonly<Record<CardMessageKey, string>>;

/** Les textes des champs de carte, en français. Les marques gardent leur nom. */
export const cardMessagesFr: CardMessages = {
  cardTitle: 'Payer par carte',
  cardRefused: 'Les données de votre carte ont été refusées. Vérifiez-les et réessayez.',
  processing: 'Paiement en cours…',
  challengeTitle: 'Confirmez votre identité',
  challengeText: 'L’émetteur de votre carte vous demande de confirmer ce paiement.',
  challengeFrameLabel: 'Vérification par l’émetteur de votre carte',
  cardFrameLabel: 'Données de la carte',
  numberLabel: 'Numéro de carte',
  expiryLabel: 'Date d’expiration (MM / AA)',
  cvcLabel: 'Code de sécurité',
  nameLabel: 'Nom sur la carte',
  pay: 'Payer {amount}',
  numberIncomplete: 'Le numéro de carte est incomplet.',
  numberInvalid: 'Ce numéro de carte n’est pas valide. Vérifiez-le et réessayez.',
  expiryInvalid: 'Saisissez la date d’expiration indiquée sur votre carte, par exemple 08 / 29.',
  expiryPast: 'Cette carte a expiré. Vérifiez la date ou utilisez une autre carte.',
  cvcInvalid: 'Saisissez le code de sécurité à {length} chiffres.',
  nameMissing: 'Saisissez le nom tel qu’il figure sur votre carte.',
  brandVisa: 'Visa',
  brandMastercard: 'Mastercard',
  brandAmex: 'American Express',
  brandVerve: 'Verve',
  brandDiscover: 'Discover',
};
