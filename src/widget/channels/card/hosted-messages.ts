/**
 * The texts of card on the provider's hosted page, in the card chunk beside the card form's. A
 * merchant may replace any of them through `messages`, by key.
 */
export const hostedCardMessagesEn = {
  hostedTitle: 'Pay by card',
  hostedOpening: 'Opening the secure card page…',
  hostedOpenedText:
    'Finish paying in the window that opened. Your card is typed there, on the payment provider’s secure page, never on this site.',
  hostedShow: 'Show the card page',
  hostedBlockedText:
    'Your browser kept the card page from opening. Continue to pay on the payment provider’s secure page.',
  hostedContinue: 'Continue to the card page',
  hostedClosedText:
    'The card page was closed before the payment was finished. Nothing was charged.',
  hostedCancelledText: 'You cancelled on the card page. Nothing was charged.',
  hostedAgain: 'Pay by card',
} as const;

export type HostedCardMessages = Readonly<Record<keyof typeof hostedCardMessagesEn, string>>;

/** Les textes de la page de carte du prestataire, en français. */
export const hostedCardMessagesFr: HostedCardMessages = {
  hostedTitle: 'Payer par carte',
  hostedOpening: 'Ouverture de la page de carte sécurisée…',
  hostedOpenedText:
    'Terminez le paiement dans la fenêtre qui s’est ouverte. Votre carte y est saisie, sur la page sécurisée du prestataire de paiement, jamais sur ce site.',
  hostedShow: 'Afficher la page de carte',
  hostedBlockedText:
    'Votre navigateur a empêché l’ouverture de la page de carte. Continuez pour payer sur la page sécurisée du prestataire de paiement.',
  hostedContinue: 'Continuer vers la page de carte',
  hostedClosedText: 'La page de carte a été fermée avant la fin du paiement. Rien n’a été débité.',
  hostedCancelledText: 'Vous avez annulé sur la page de carte. Rien n’a été débité.',
  hostedAgain: 'Payer par carte',
};
