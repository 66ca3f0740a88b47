// paydrop-outcomes.js: the words of the screens where a payment did not go through, loaded when
// one is first shown (src/widget/ui/outcomes.ts), and their marks (issue 23). Plain functions,
// texts and paths: no Preact to adopt.
export { type OutcomeMark, outcomeMarks } from './marks';
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
