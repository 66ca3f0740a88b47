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
  payAmount: 'Payer {amount}',
  chooseMethod: 'Comment souhaitez-vous payer\u202f?',
  channelPayByTransfer: 'Virement bancaire',
  channelPayByAccount: 'Payer depuis votre banque',
  channelCard: 'Carte',
  channelPayByTransferText: 'Vers un compte à usage unique, depuis votre application bancaire.',
  channelPayByAccountText: 'Validez le paiement dans votre application bancaire.',
  channelCardText: 'Carte de débit ou de crédit.',
  starting: 'Préparation de votre paiement…',
  transferTitle: 'Virez {amount}',
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
  expiredTitle: 'Ce compte a expiré',
  expiredText:
    'Aucun virement n’est arrivé à temps. Si vous n’avez pas encore envoyé d’argent, demandez un nouveau compte et réessayez.',
  newAccount: 'Obtenir un nouveau compte',
  succeededTitle: 'Paiement reçu',
  succeededText: 'Merci\u202f! Votre paiement de {amount} est confirmé.',
  failedTitle: 'Paiement non abouti',
  failedText:
    'Votre paiement n’a pas abouti. Si de l’argent a quitté votre compte, votre banque vous le restituera.',
  errorTitle: 'Une erreur est survenue',
  tryAgain: 'Réessayer',
  done: 'Terminé',
  errorNetwork:
    'La connexion au service de paiement a été perdue. Rien n’a été débité. Vérifiez votre connexion et réessayez.',
  errorUnavailable: 'Les paiements sont momentanément indisponibles. Réessayez dans un instant.',
  errorNotFound:
    'Cette commande ne peut pas être payée. Elle a peut-être déjà été payée ou annulée.',
  errorNoChannels: 'Aucun moyen de paiement n’est disponible pour cette commande.',
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
  phoneText:
    'Scannez avec votre téléphone et validez dans votre application bancaire. Cette page se met à jour toute seule.',
  qrLabel: 'Code QR pour payer sur votre téléphone',
  otherMethod: 'Choisir un autre moyen de paiement',
  alreadyPaidTitle: 'Déjà payé',
  errorAlreadyPaid: 'Ce paiement a déjà été effectué. Il n’y a plus rien à payer.',
  bankDeclinedTitle: 'Refusé par votre banque',
  bankDeclinedText:
    'Aucun montant n’a quitté votre compte. Réessayez ou choisissez un autre moyen de paiement.',
  shortTitle: 'Virement inférieur au montant',
  shortPaid: '{paid} sont arrivés, il manque {missing}.',
  shortText:
    'Le paiement n’a pas abouti. N’envoyez pas le reste sur ce compte\u00a0: contactez la boutique au sujet de l’argent arrivé.',
  continueTransfer: 'Continuer avec votre virement bancaire',
  accountReplaces:
    'Voici un nouveau compte. Il remplace le compte {old}, qui a expiré\u00a0: ne payez plus sur celui-ci.',
  expiringSoon:
    'Moins de 2 minutes restantes. Si vous n’avez pas encore envoyé l’argent, attendez un nouveau compte.',
};
