import { bankMessagesEn, channelNamesEn, transferMessagesEn } from '../channels/names';
/** Every text the customer sees, in English. `{name}` marks a value filled in at run time. */
export const en = {
  /** The language of these texts, set as the dialog's `lang` so screen readers speak it rightly. */
  lang: 'en',
  dialogLabel: 'Checkout',
  close: 'Close',
  loading: 'Loading…',
  chooseMethod: 'How would you like to pay?',
  ...channelNamesEn,
  starting: 'Setting up your payment…',
  ...transferMessagesEn,
  succeededTitle: 'Payment received',
  succeededText: 'Thank you! Your payment of {amount} is confirmed.',
  errorTitle: 'Something went wrong',
  tryAgain: 'Try again',
  done: 'Done',
  errorNetwork:
    'We lost the connection to the checkout. Nothing was charged. Check your connection and try again.',
  errorGeneric: 'The checkout could not continue. Please try again.',
  leaveTitle: 'Leave the checkout?',
  leaveText: 'If you have already paid, the shop will still get your payment.',
  leave: 'Leave',
  stay: 'Stay',
  processing: 'Processing your payment…',
  checkingPayment: 'Checking your payment…',
  ...bankMessagesEn,
  otherMethod: 'Choose another way to pay',
  continueTransfer: 'Continue with your bank transfer',
  /** Who processes the payment, under the channels and the payment steps (issue 23). */
  trust: 'Payment processed by the shop’s payment provider.',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
