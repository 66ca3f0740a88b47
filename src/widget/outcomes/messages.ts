/**
 * The words of the screens where a payment did not go through (issue 12): one title and text per
 * cause, saying why and where the money is; the expired account's; and those of an order that
 * cannot be paid here (paid already, unknown, no channel, the service down); the warning of an
 * account's last two minutes, which asks for them ahead of its expiry; and the notice that a new
 * account replaces an expired one, which only follows an expired screen. They travel in the
 * paydrop-outcomes chunk, loaded when such a screen is first shown, so a customer whose payment
 * goes through never downloads them. A merchant may replace any of them through `messages`.
 * `{name}` marks a value filled in at run time.
 */
export const outcomeMessagesEn = {
  failedTitle: 'Payment not completed',
  failedText: 'If money left your account, your bank will return it.',
  bankDeclinedTitle: 'Declined by your bank',
  bankDeclinedText: 'Nothing left your account. Try again or pay another way.',
  shortTitle: 'Transfer short of the amount',
  shortPaid: '{paid} arrived, {missing} is missing.',
  shortText:
    'The payment did not go through. Do not send the rest to this account: contact the shop about the money that arrived.',
  cardDeclinedTitle: 'Card declined',
  insufficientFundsTitle: 'Insufficient funds',
  cardExpiredTitle: 'Card expired',
  verificationFailedTitle: 'Verification failed',
  cardNotChargedText: 'Your card was not charged. Try again or pay another way.',
  cardDeclinedText:
    'Your card was not charged. Try another card or pay another way; your bank can tell you why.',
  tooManyAttemptsTitle: 'Too many attempts',
  tooManyAttemptsText:
    'For your security, this way of paying is paused for a while. Come back later, or pay another way. Nothing was charged.',
  timeoutText: 'The verification timed out; your card was not charged.',
  expiredTitle: 'This account has expired',
  expiredText:
    'No transfer arrived in time. If you have not sent money yet, get a new account and try again.',
  alreadyPaidTitle: 'Already paid',
  errorAlreadyPaid: 'This has already been paid. There is nothing more to pay.',
  errorNotFound: 'This order cannot be paid. It may have been paid already or cancelled.',
  errorNoChannels: 'No payment method is available for this order.',
  errorUnavailable: 'Payments are unavailable right now. Please try again in a moment.',
  accountReplaces:
    'This is a new account. It replaces account {old}, which has expired: do not pay into that one.',
  expiringSoon:
    'Less than 2 minutes left. If you have not sent the money yet, wait for a new account.',
} as const;

export type OutcomeMessageKey = keyof typeof outcomeMessagesEn;

/** Every text of these screens; a merchant may replace any of them. */
export type OutcomeMessages = Readonly<Record<OutcomeMessageKey, string>>;

/** Les mêmes textes, en français. */
export const outcomeMessagesFr: OutcomeMessages = {
  failedTitle: 'Paiement non abouti',
  failedText:
    'Votre paiement n’a pas abouti. Si de l’argent a quitté votre compte, votre banque vous le restituera.',
  bankDeclinedTitle: 'Refusé par votre banque',
  bankDeclinedText:
    'Aucun montant n’a quitté votre compte. Réessayez ou choisissez un autre moyen de paiement.',
  shortTitle: 'Virement inférieur au montant',
  shortPaid: '{paid} sont arrivés, il manque {missing}.',
  shortText:
    'Le paiement n’a pas abouti. N’envoyez pas le reste sur ce compte\u00a0: contactez la boutique au sujet de l’argent arrivé.',
  cardDeclinedTitle: 'Carte refusée',
  insufficientFundsTitle: 'Solde insuffisant',
  cardExpiredTitle: 'Carte expirée',
  verificationFailedTitle: 'Échec de la vérification',
  cardNotChargedText:
    'Votre carte n’a pas été débitée. Réessayez ou choisissez un autre moyen de paiement.',
  cardDeclinedText:
    'Votre carte n’a pas été débitée. Essayez une autre carte ou un autre moyen de paiement. Votre banque peut vous dire pourquoi.',
  tooManyAttemptsTitle: 'Trop de tentatives',
  tooManyAttemptsText:
    'Pour votre sécurité, ce moyen de paiement est suspendu pour un moment. Revenez plus tard ou choisissez un autre moyen de paiement. Rien n’a été débité.',
  timeoutText: 'La vérification a pris trop de temps\u202f; votre carte n’a pas été débitée.',
  expiredTitle: 'Ce compte a expiré',
  expiredText:
    'Aucun virement n’est arrivé à temps. Si vous n’avez pas encore envoyé d’argent, demandez un nouveau compte et réessayez.',
  alreadyPaidTitle: 'Déjà payé',
  errorAlreadyPaid: 'Ce paiement a déjà été effectué. Il n’y a plus rien à payer.',
  errorNotFound:
    'Cette commande ne peut pas être payée. Elle a peut-être déjà été payée ou annulée.',
  errorNoChannels: 'Aucun moyen de paiement n’est disponible pour cette commande.',
  errorUnavailable: 'Les paiements sont momentanément indisponibles. Réessayez dans un instant.',
  accountReplaces:
    'Voici un nouveau compte. Il remplace le compte {old}, qui a expiré\u00a0: ne payez plus sur celui-ci.',
  expiringSoon:
    'Moins de 2 minutes restantes. Si vous n’avez pas encore envoyé l’argent, attendez un nouveau compte.',
};
