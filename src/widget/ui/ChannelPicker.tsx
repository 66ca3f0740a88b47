import { Fragment, h } from 'preact';
import type { ChannelChoice } from '../../flow/companion';
import type { Channel } from '../../protocol';
import type { Messages } from '../messages';

interface ChannelPickerProps {
  readonly channels: readonly ChannelChoice[];
  readonly messages: Messages;
  readonly onChoose: (channel: Channel) => void;
}

export function channelLabel(channel: Channel, messages: Messages): string {
  return messages[`channel${channel}`];
}

/**
 * One button per channel: a single click (or Enter) starts it. That click is also the one the
 * bank's window must be opened in, so blockers allow it.
 */
export function ChannelPicker({ channels, messages, onChoose }: ChannelPickerProps) {
  return (
    <>
      <h3 tabIndex={-1} data-step-heading>
        {messages.chooseMethod}
      </h3>
      <div class="actions">
        {channels.map((channel) => (
          <button
            type="button"
            class="secondary choice"
            key={channel.name}
            onClick={() => onChoose(channel.name)}
          >
            {channelLabel(channel.name, messages)}
            {channel.description ? <small>{channel.description}</small> : null}
          </button>
        ))}
      </div>
    </>
  );
}
