import { channelNamesEn } from '../channels/names';
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
  transferTitle: 'Transfer to this account',
  transferIntro: 'Send exactly this amount from your banking app.',
  transferFees: 'Includes {fees} in fees.',
  amountLabel: 'Amount',
  bankLabel: 'Bank',
  accountNumberLabel: 'Account number',
  accountNameLabel: 'Account name',
  copy: 'Copy',
  copyLabel: 'Copy {what}',
  /**
   * What each copy button names, in the details' order (amount|account number|bank|account
   * name), for a language whose sentence wants other words than the label (French: « le
   * numéro de compte »); empty: the labels themselves.
   */
  copyNames: '',
  copied: 'Copied',
  copiedAmount: 'Amount copied to the clipboard.',
  copiedAccountNumber: 'Account number copied to the clipboard.',
  copiedBank: 'Bank copied to the clipboard.',
  copiedAccountName: 'Account name copied to the clipboard.',
  copyFailed: 'Could not copy; select the text instead.',
  expiresIn: 'This account expires in {time}',
  minutesLeft: '{minutes} minutes left to transfer.',
  oneMinuteLeft: '1 minute left to transfer.',
  sentMoney: "I've sent the money",
  confirmingTitle: 'Confirming your transfer',
  confirmingText: 'We will tell you as soon as your bank confirms it.',
  newAccount: 'Get a new account',
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
  bankTitle: 'Pay from your bank',
  bankReadyText: 'Approve the payment at your bank, then come back here.',
  bankOpenedText: 'Approve the payment in your bank’s window; this page follows.',
  bankClosedText: 'The bank’s window closed. If you approved, this page updates in a moment.',
  continueToBank: 'Continue to your bank',
  showBank: 'Show the bank’s window',
  usePhone: 'Pay on your phone instead',
  otherMethod: 'Choose another way to pay',
  continueTransfer: 'Continue with your bank transfer',
  /** Who processes the payment, under the channels and the payment steps (issue 23). */
  trust: 'Payment processed by the shop’s payment provider.',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
