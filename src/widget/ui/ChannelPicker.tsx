import { Component, h } from 'preact';
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

/** The channels as a labelled radio group, chosen with the keyboard as well as the pointer. */
export class ChannelPicker extends Component<ChannelPickerProps, { chosen: Channel }> {
  override state = { chosen: this.props.channels[0]?.name ?? ('PayByTransfer' as Channel) };

  override render() {
    const { channels, messages, onChoose } = this.props;
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onChoose(this.state.chosen);
        }}
      >
        <fieldset>
          <legend>
            <h3 tabIndex={-1} data-step-heading>
              {messages.chooseMethod}
            </h3>
          </legend>
          {channels.map((channel) => (
            <label class="choice" key={channel.name}>
              <input
                type="radio"
                name="paydrop-channel"
                value={channel.name}
                checked={this.state.chosen === channel.name}
                onChange={() => this.setState({ chosen: channel.name })}
              />
              <span>
                {channelLabel(channel.name, messages)}
                {channel.description ? <small>{channel.description}</small> : null}
              </span>
            </label>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary">
            {messages.continue}
          </button>
        </div>
      </form>
    );
  }
}
