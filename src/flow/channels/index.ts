/**
 * What the checkout model knows of each channel, in one place: the step a payment of the channel
 * is shown in, whether its own panel starts the payment, and its actions (one module per
 * channel). Every function here switches over all of the protocol's CHANNELS, so a channel added
 * there is a compile error here until it has its rules.
 */
import type { Channel } from '../../protocol';
import type { BankPhase, LiveStep, PayingStep } from '../checkout-step';
import type { PaymentView } from '../companion';

export { type BankActions, createBankActions } from './bank';
export { type CardActions, createCardActions } from './card';
export type { PayingCore } from './paying-core';
export { createTransferActions, type TransferActions } from './transfer';

/** The step a payment of its channel is shown in when it arrives (initiated, resumed, finalized). */
export function liveStepFor(payment: PaymentView, bankPhase: BankPhase = 'ready'): LiveStep {
  switch (payment.channel) {
    case 'PayByTransfer':
      return { kind: 'paying', channel: 'PayByTransfer', phase: 'awaiting', payment };
    case 'PayByAccount':
      return { kind: 'paying', channel: 'PayByAccount', phase: bankPhase, payment };
    case 'Card':
      // The card chunk finalized it: only the provider's word is awaited.
      return { kind: 'processing', payment };
  }
}

/**
 * The step a chosen channel opens on when its own panel starts the payment (the card, once the
 * card is submitted); null when the model initiates the payment at once.
 */
export function panelStartStep(channel: Channel): PayingStep | null {
  switch (channel) {
    case 'Card':
      return { kind: 'paying', channel: 'Card', phase: 'entry', payment: null };
    case 'PayByTransfer':
    case 'PayByAccount':
      return null;
  }
}

/** Whether initiating the channel sends the page to return to after a full-page redirect. */
export function returnsToPage(channel: Channel): boolean {
  return channel === 'PayByAccount';
}
