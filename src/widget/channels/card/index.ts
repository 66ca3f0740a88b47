// The paydrop-card chunk: loaded only when the customer chooses Card.
export type { CardFieldsProps, HostPreact } from './CardFields';
export { createCardFields } from './CardFields';
export { type CardStepProps, createCardStep } from './CardStep';
export { type ChallengeFrameProps, createChallengeFrame } from './ChallengeFrame';
export {
  type CardFlow,
  type CardFlowHost,
  type CardFlowState,
  CHALLENGE_TIMEOUT_MS,
  createCardFlow,
} from './card-flow';
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
