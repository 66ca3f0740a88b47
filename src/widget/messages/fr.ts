import { bankMessagesFr, channelNamesFr, transferMessagesFr } from '../channels/names';
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
  ...transferMessagesFr,
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
  ...bankMessagesFr,
  otherMethod: 'Choisir un autre moyen de paiement',
  continueTransfer: 'Continuer avec votre virement bancaire',
  trust: 'Paiement traité par le prestataire de paiement de la boutique.',
};
