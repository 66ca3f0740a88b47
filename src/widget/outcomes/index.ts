// paydrop-outcomes.js: the words of the screens where a payment did not go through, loaded when
// one is first shown (src/widget/ui/outcomes.ts). Plain functions and texts: no Preact to adopt.
export {
  type OutcomeMessageKey,
  type OutcomeMessages,
  outcomeMessagesEn,
  outcomeMessagesFr,
} from './messages';
export {
  errorWords,
  failureWords,
  type OutcomeWords,
  outcomeMessages,
  outcomeWords,
} from './words';
