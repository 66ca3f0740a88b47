export type { CardFieldsProps, HostPreact } from './CardFields';
export { createCardFields } from './CardFields';
export type {
  CardBrand,
  CardDetails,
  CardErrorKey,
  CardField,
  CardFieldValues,
} from './card-input';
export type { CardMessageKey, CardMessages } from './messages';
export { cardMessagesEn, cardMessagesFr } from './messages';
