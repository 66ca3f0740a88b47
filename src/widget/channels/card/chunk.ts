// The paydrop-card chunk: loaded only when the customer chooses Card (CardPanel.tsx loads it).

export type {
  CardBrand,
  CardDetails,
  CardErrorKey,
  CardField,
  CardFieldValues,
} from '../../../protocol/card-input';
export {
  CardFrame,
  type CardFrameLink,
  type CardFrameProps,
  createCardFrameLink,
} from './CardFrame';
export { CardStep, type CardStepProps, cardMessages } from './CardStep';
export { ChallengeFrame, type ChallengeFrameProps } from './ChallengeFrame';
export {
  type CardFlow,
  type CardFlowHost,
  type CardFlowState,
  CHALLENGE_TIMEOUT_MS,
  createCardFlow,
} from './card-flow';
export { isChallengeCompletion } from './challenge-message';
export { CardEntryStep, HostedCard, type HostedCardProps } from './HostedCard';
export type { CardMessageKey, CardMessages } from './messages';
export { cardMessagesEn, cardMessagesFr } from './messages';
