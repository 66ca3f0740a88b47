/**
 * What a channel gives the widget: one descriptor, exported by its folder's index.ts and listed
 * once in the registry (index.ts beside this file). The model has one "paying" step for every
 * channel; the descriptor says how that step looks for this one.
 */
import type { ComponentChildren, ComponentType } from 'preact';
import type { CheckoutModel } from '../../flow/checkout-model';
import type { PayingPhases, PayingStep } from '../../flow/checkout-step';
import type { CustomerDetails, HttpCompanion } from '../../flow/companion';
import type { Channel } from '../../protocol/types';
import type { Messages } from '../messages';
import type { BankWindow } from './bank/bank-window';

/** What the dialog hands every channel's panel. */
export interface PanelContext {
  readonly model: CheckoutModel;
  readonly messages: Messages;
  readonly locale: string;
  /** The bank's window, which lives as long as the checkout (PayByAccount opens it). */
  readonly bank: BankWindow;
  /** For channels that make their own calls (the card chunk). */
  readonly companion: HttpCompanion;
  readonly customer?: CustomerDetails | undefined;
  /** Says something in the dialog's live region ("Account number copied"). */
  readonly announce: (text: string) => void;
  /** "Choose another way to pay", when there is another way. */
  readonly other: ComponentChildren;
}

export interface PanelProps<C extends Channel> {
  readonly step: PayingStep<C>;
  readonly context: PanelContext;
}

export interface ChannelDescriptor<C extends Channel> {
  readonly name: C;
  /** Its mark beside its name in the channel list: a path for ui/Icon (issue 23). */
  readonly mark: string;
  /** What the dialog shows at the paying step of this channel. */
  readonly Panel: ComponentType<PanelProps<C>>;
  /**
   * What choosing it does in the very click, before the model starts it and before any await
   * (a popup opened later is blocked): PayByAccount opens the bank's window here.
   */
  readonly choose?: ((context: PanelContext) => void) | undefined;
  /**
   * What it warms up while it is on offer (the list shows it, or it is starting as the only one):
   * its panel's part, so that choosing it waits for no download.
   */
  readonly offered?: (() => void) | undefined;
  /** Its steps: the phases of its paying step, in the order a customer meets them. */
  readonly steps: readonly PayingPhases[C][];
}
