/**
 * What the checkout model knows of each channel, in one place: one line per channel of the
 * protocol's CHANNELS in CHANNEL_RULES (its rules, rules.ts), and its actions (one module per
 * channel). A channel added to CHANNELS without a line here is a compile error.
 */
import type { Channel } from '../../protocol';
import type { LiveStep, PayingStep } from '../checkout-step';
import type { PaymentView } from '../companion';
import { bankRules } from './bank';
import { cardRules } from './card';
import type { BankPhase } from './phases';
import type { ChannelRules } from './rules';
import { transferRules } from './transfer';

export { type BankActions, createBankActions } from './bank';
export { type CardActions, createCardActions } from './card';
export type { PayingCore } from './paying-core';
export type { ChannelRules } from './rules';
export { createTransferActions, type TransferActions } from './transfer';

export const CHANNEL_RULES = {
  PayByTransfer: transferRules,
  PayByAccount: bankRules,
  Card: cardRules,
} as const satisfies { readonly [C in Channel]: ChannelRules<C> };

/** The rules of a channel, for a payment or a step of any channel. */
export function rulesOf(channel: Channel): ChannelRules<Channel> {
  return CHANNEL_RULES[channel];
}

/** The step a payment of its channel is shown in when it arrives (initiated, resumed, finalized). */
export function liveStepFor(payment: PaymentView, resumed: BankPhase = 'ready'): LiveStep {
  return rulesOf(payment.channel).liveStep(payment, resumed);
}

/** The step a chosen channel opens on when its own panel starts the payment, or null. */
export function panelStartStep(channel: Channel): PayingStep | null {
  return rulesOf(channel).panelStart;
}

/** Whether initiating the channel sends the page to return to after a full-page redirect. */
export function returnsToPage(channel: Channel): boolean {
  return rulesOf(channel).returnsToPage;
}
