import { channelNamesFr } from '../channels/names';
import type { Messages } from './en';

/**
 * Tous les textes que voit le client, en français. Typographie française : une espace fine
 * insécable (\u202f) avant ? ! ;, pour qu'aucun signe ne passe seul à la ligne.
 */
export const fr: Messages = {
  lang: 'fr',
  dialogLabel: 'Paiement',
  close: 'Fermer',
  loading: 'Préparation de votre paiement…',
  chooseMethod: 'Comment souhaitez-vous payer\u202f?',
  ...channelNamesFr,
  starting: 'Préparation de votre paiement…',
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
  succeededTitle: 'Paiement reçu',
  succeededText: 'Merci\u202f! Votre paiement de {amount} est confirmé.',
  errorTitle: 'Une erreur est survenue',
  tryAgain: 'Réessayer',
  done: 'Terminé',
  errorNetwork:
    'La connexion au service de paiement a été perdue. Rien n’a été débité. Vérifiez votre connexion et réessayez.',
  errorGeneric: 'Le paiement n’a pas pu continuer. Veuillez réessayer.',
  leaveTitle: 'Quitter le paiement\u202f?',
  leaveText: 'Si vous avez déjà payé, la boutique recevra quand même votre paiement.',
  leave: 'Quitter',
  stay: 'Rester',
  processing: 'Paiement en cours…',
  checkingPayment: 'Vérification de votre paiement…',
  bankTitle: 'Payer depuis votre banque',
  bankReadyText: 'Validez le paiement auprès de votre banque, puis revenez ici.',
  bankOpenedText:
    'Validez le paiement dans la fenêtre de votre banque. Cette page se met à jour toute seule.',
  bankClosedText:
    'La fenêtre de la banque s’est fermée. Si vous avez validé, cette page se met à jour dans un instant.',
  continueToBank: 'Continuer vers votre banque',
  showBank: 'Afficher la fenêtre de la banque',
  usePhone: 'Payer plutôt sur votre téléphone',
  otherMethod: 'Choisir un autre moyen de paiement',
  continueTransfer: 'Continuer avec votre virement bancaire',
  trust: 'Paiement traité par le prestataire de paiement de la boutique.',
};
