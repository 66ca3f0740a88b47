// PayByTransfer: the virtual account to pay into, its countdown, "I've sent the money".
import { Fragment, h } from 'preact';
import { loadTransferChunk } from '#chunks';
import { CompanionFailure } from '../../../flow/companion';
import { Lazy } from '../../ui/Lazy';
import { askOutcomes } from '../../ui/outcomes';
import type { ChannelDescriptor } from '../channel';

export const transfer: ChannelDescriptor<'PayByTransfer'> = {
  name: 'PayByTransfer',
  // The account's panel loads while the list shows it (or beside the only channel's setting up),
  // so the account, once set up, waits for no download; a failed load is asked again by the panel.
  offered: () => void loadTransferChunk(),
  // A bank.
  mark: 'M3 9l9-5 9 5zm2 3v6m4.7-6v6m4.6-6v6m4.7-6v6M3 21h18',
  Panel: ({ step, context }) => (
    <>
      {/* Its own chunk for the script tag (issue 23); Try again on the error step loads it again. */}
      <Lazy
        load={loadTransferChunk}
        messages={context.messages}
        failed={() =>
          context.model.fail(new CompanionFailure('network', 'The transfer could not load.'))
        }
      >
        {({ TransferPanel }) => (
          <TransferPanel
            model={context.model}
            payment={step.payment}
            phase={step.phase}
            messages={context.messages}
            locale={context.locale}
            announce={context.announce}
            ask={askOutcomes}
          />
        )}
      </Lazy>
      {/* Another way to pay (issue 12): the account stays open, offered to continue. */}
      {step.phase === 'awaiting' ? <div class="actions">{context.other}</div> : null}
    </>
  ),
  steps: ['awaiting', 'confirming'],
};
