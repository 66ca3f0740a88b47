/**
 * The transfer panel's texts (the account, its copy buttons, its countdown, the confirming step),
 * in every language: spread into the dialog's catalogues (messages/en.ts, fr.ts) through
 * widget/channels/names.ts, where a merchant may override them like any text. `{name}` marks a
 * value filled in at run time.
 */
export const transferMessagesEn = {
  transferTitle: 'Transfer to this account',
  transferIntro: 'Send exactly this amount from your banking app.',
  transferFees: 'Includes {fees} in fees.',
  amountLabel: 'Amount',
  bankLabel: 'Bank',
  accountNumberLabel: 'Account number',
  accountNameLabel: 'Account name',
  copy: 'Copy',
  copyLabel: 'Copy {what}',
  /**
   * What each copy button names, in the details' order (amount|account number|bank|account
   * name), for a language whose sentence wants other words than the label (French: « le
   * numéro de compte »); empty: the labels themselves.
   */
  copyNames: '',
  copied: 'Copied',
  copiedAmount: 'Amount copied to the clipboard.',
  copiedAccountNumber: 'Account number copied to the clipboard.',
  copiedBank: 'Bank copied to the clipboard.',
  copiedAccountName: 'Account name copied to the clipboard.',
  copyFailed: 'Could not copy; select the text instead.',
  expiresIn: 'This account expires in {time}',
  minutesLeft: '{minutes} minutes left to transfer.',
  oneMinuteLeft: '1 minute left to transfer.',
  sentMoney: "I've sent the money",
  confirmingTitle: 'Confirming your transfer',
  confirmingText: 'We will tell you as soon as your bank confirms it.',
  newAccount: 'Get a new account',
} as const;

/** Les textes du virement, en français. */
export const transferMessagesFr: Readonly<Record<keyof typeof transferMessagesEn, string>> = {
  transferTitle: 'Virez sur ce compte',
  transferIntro:
    'Envoyez exactement ce montant sur le compte ci-dessous depuis votre application bancaire.',
  transferFees: 'Dont {fees} de frais.',
  amountLabel: 'Montant',
  bankLabel: 'Banque',
  accountNumberLabel: 'Numéro de compte',
  accountNameLabel: 'Titulaire du compte',
  copy: 'Copier',
  copyLabel: 'Copier {what}',
  copyNames: 'le montant|le numéro de compte|le nom de la banque|le nom du titulaire du compte',
  copied: 'Copié',
  copiedAmount: 'Montant copié dans le presse-papiers.',
  copiedAccountNumber: 'Numéro de compte copié dans le presse-papiers.',
  copiedBank: 'Banque copiée dans le presse-papiers.',
  copiedAccountName: 'Titulaire du compte copié dans le presse-papiers.',
  copyFailed: 'Copie impossible\u202f; sélectionnez le texte.',
  expiresIn: 'Ce compte expire dans {time}',
  minutesLeft: 'Il reste {minutes} minutes pour faire le virement.',
  oneMinuteLeft: 'Il reste 1 minute pour faire le virement.',
  sentMoney: 'J’ai envoyé l’argent',
  confirmingTitle: 'Confirmation de votre virement',
  confirmingText:
    'Nous vous préviendrons dès que votre banque l’aura confirmé, en général en quelques instants.',
  newAccount: 'Obtenir un nouveau compte',
};
