// PayByAccount: the bank's window opened in the choosing click, the QR code, the bank's return.
import { h } from 'preact';
import type { ChannelDescriptor } from '../channel';
import { BankPanel } from './BankPanel';

export const bank: ChannelDescriptor<'PayByAccount'> = {
  name: 'PayByAccount',
  // A phone with a tick.
  mark: 'M7 2h10v20H7zm4 17h2m-3.5-9 2 2 3.5-3.5',
  Panel: ({ step, context }) => (
    <BankPanel
      model={context.model}
      payment={step.payment}
      phase={step.phase}
      messages={context.messages}
      locale={context.locale}
      bank={context.bank}
      other={context.other}
    />
  ),
  // The bank's window opens in this click, before any await, so blockers allow it.
  choose: ({ bank }) => bank.prepare(),
  steps: ['ready', 'opened', 'closed', 'processing'],
};
