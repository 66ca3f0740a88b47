// The paydrop-card chunk: loaded only when the customer chooses Card.
export type { CardFieldsProps, HostPreact } from './CardFields';
export { createCardFields } from './CardFields';
export { type ChallengeFrameProps, createChallengeFrame } from './ChallengeFrame';
export type {
  CardBrand,
  CardDetails,
  CardErrorKey,
  CardField,
  CardFieldValues,
} from './card-input';
export { isChallengeCompletion } from './challenge-message';
export type { CardMessageKey, CardMessages } from './messages';
export { cardMessagesEn, cardMessagesFr } from './messages';

import CARD_CSS from './card.css?inline';

/** The chunk's styles, for the dialog to adopt beside its own. */
export const cardCss: string = CARD_CSS;
