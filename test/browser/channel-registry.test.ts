// @vitest-environment jsdom
// The registry of channels: every channel of the protocol has one descriptor, from its own folder,
// and this is what each provides (CONTRIBUTING.md, "Adding a channel").
import { describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../src/protocol/types';
import { CHANNEL_REGISTRY, type PanelContext, SUPPORTED_CHANNELS } from '../../src/widget/channels';

describe('the registry of channels', () => {
  it('has one descriptor per channel of the protocol, under its own name', () => {
    expect(Object.keys(CHANNEL_REGISTRY)).toEqual([...CHANNELS]);
    for (const name of CHANNELS) expect(CHANNEL_REGISTRY[name].name).toBe(name);
    expect(SUPPORTED_CHANNELS).toEqual([...CHANNELS]);
  });

  it('lists what each channel provides: its mark, its panel, what choosing it does, its steps', () => {
    const provided = Object.fromEntries(
      CHANNELS.map((name) => {
        const channel = CHANNEL_REGISTRY[name];
        return [
          name,
          {
            // A path for ui/Icon (issue 23), drawn: not empty.
            mark: /^M[\d.]/.test(channel.mark),
            panel: typeof channel.Panel,
            choose: channel.choose ? 'in the click' : 'nothing',
            offered: channel.offered ? 'warms up' : 'nothing',
            steps: channel.steps,
          },
        ];
      }),
    );
    expect(provided).toEqual({
      // A transfer on offer loads its panel's part (issue 23); choosing it opens nothing.
      PayByTransfer: {
        mark: true,
        panel: 'function',
        choose: 'nothing',
        offered: 'warms up',
        steps: ['awaiting', 'confirming'],
      },
      PayByAccount: {
        mark: true,
        panel: 'function',
        choose: 'in the click',
        offered: 'nothing',
        steps: ['ready', 'opened', 'closed', 'processing'],
      },
      // The provider's hosted card page opens in the choosing click too.
      Card: {
        mark: true,
        panel: 'function',
        choose: 'in the click',
        offered: 'nothing',
        steps: ['entry', 'started'],
      },
    });
  });

  it('opens the payment window for PayByAccount and the hosted card page, and not for direct card entry or a transfer', () => {
    const prepare = vi.fn();
    const withCardEntry = (cardEntry?: 'hosted' | 'direct') =>
      ({
        bank: { prepare },
        model: { session: { peek: () => ({ cardEntry }) } },
      }) as unknown as PanelContext;
    CHANNEL_REGISTRY.PayByAccount.choose?.(withCardEntry());
    CHANNEL_REGISTRY.PayByTransfer.choose?.(withCardEntry());
    expect(prepare).toHaveBeenCalledTimes(1);
    CHANNEL_REGISTRY.Card.choose?.(withCardEntry('direct'));
    expect(prepare).toHaveBeenCalledTimes(1);
    CHANNEL_REGISTRY.Card.choose?.(withCardEntry('hosted'));
    CHANNEL_REGISTRY.Card.choose?.(withCardEntry());
    expect(prepare).toHaveBeenCalledTimes(3);
  });
});
