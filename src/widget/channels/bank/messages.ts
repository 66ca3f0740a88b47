/**
 * The bank panel's texts (the bank's window, its return), in every language: spread into the
 * dialog's catalogues (messages/en.ts, fr.ts) through widget/channels/names.ts, where a merchant
 * may override them like any text. `{name}` marks a value filled in at run time.
 */
export const bankMessagesEn = {
  bankTitle: 'Pay from your bank',
  bankReadyText: 'Approve the payment at your bank, then come back here.',
  bankOpenedText: 'Approve the payment in your bank’s window; this page follows.',
  bankClosedText: 'The bank’s window closed. If you approved, this page updates in a moment.',
  continueToBank: 'Continue to your bank',
  showBank: 'Show the bank’s window',
  usePhone: 'Pay on your phone instead',
} as const;

/** Les textes du paiement depuis la banque, en français. */
export const bankMessagesFr: Readonly<Record<keyof typeof bankMessagesEn, string>> = {
  bankTitle: 'Payer depuis votre banque',
  bankReadyText: 'Validez le paiement auprès de votre banque, puis revenez ici.',
  bankOpenedText:
    'Validez le paiement dans la fenêtre de votre banque. Cette page se met à jour toute seule.',
  bankClosedText:
    'La fenêtre de la banque s’est fermée. Si vous avez validé, cette page se met à jour dans un instant.',
  continueToBank: 'Continuer vers votre banque',
  showBank: 'Afficher la fenêtre de la banque',
  usePhone: 'Payer plutôt sur votre téléphone',
};
