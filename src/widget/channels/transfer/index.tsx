// PayByTransfer: the virtual account to pay into, its countdown, "I've sent the money".
import { Fragment, h } from 'preact';
import type { ChannelDescriptor } from '../channel';
import { TransferPanel } from './TransferPanel';

export const transfer: ChannelDescriptor<'PayByTransfer'> = {
  name: 'PayByTransfer',
  Panel: ({ step, context }) => (
    <>
      <TransferPanel
        model={context.model}
        payment={step.payment}
        phase={step.phase}
        messages={context.messages}
        locale={context.locale}
        announce={context.announce}
      />
      {/* Another way to pay (issue 12): the account stays open, offered to continue. */}
      {step.phase === 'awaiting' ? <div class="actions">{context.other}</div> : null}
    </>
  ),
  steps: ['awaiting', 'confirming'],
};
