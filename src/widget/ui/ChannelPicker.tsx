import { Fragment, h } from 'preact';
import type { ChannelChoice } from '../../flow/companion';
import type { Channel } from '../../protocol';
import { CHANNEL_REGISTRY } from '../channels';
import type { Messages } from '../messages';
import { Icon } from './Icon';

interface ChannelPickerProps {
  readonly channels: readonly ChannelChoice[];
  readonly messages: Messages;
  readonly onChoose: (channel: Channel) => void;
}

export function channelLabel(channel: Channel, messages: Messages): string {
  return messages[`channel${channel}`];
}

/**
 * What a channel is, in the customer's language: the widget's own words, the provider's (English)
 * description only when a merchant's messages empty ours.
 */
export function channelText(choice: ChannelChoice, messages: Messages): string | null {
  return messages[`channel${choice.name}Text`] || choice.description;
}

/**
 * One button per channel, its mark beside its name (issue 23): a single click (or Enter) starts it. That click is also the one the
 * bank's window must be opened in, so blockers allow it. The button is named by the channel alone
 * and described by its text, so a screen reader does not say "Pay from your bank Pay from…": the
 * text is hidden from the name (aria-hidden) and given back as the description (aria-describedby
 * reads hidden text it points at), and the visible name stays the accessible one (WCAG 2.5.3).
 */
export function ChannelPicker({ channels, messages, onChoose }: ChannelPickerProps) {
  return (
    <>
      <h3 tabIndex={-1} data-step-heading>
        {messages.chooseMethod}
      </h3>
      <div class="actions">
        {channels.map((channel) => {
          const id = `paydrop-channel-${channel.name}-text`;
          const text = channelText(channel, messages);
          return (
            <button
              type="button"
              class="secondary choice"
              key={channel.name}
              aria-describedby={text ? id : undefined}
              onClick={() => onChoose(channel.name)}
            >
              <Icon d={CHANNEL_REGISTRY[channel.name].mark} />
              <span>
                {channelLabel(channel.name, messages)}
                {text ? (
                  <small id={id} aria-hidden="true">
                    {text}
                  </small>
                ) : null}
              </span>
            </button>
          );
        })}
      </div>
    </>
  );
}
