// Card: the card form, its authentication and challenge, in the paydrop-card chunk (chunk.ts),
// loaded by the panel when the customer chooses Card.
import type { ChannelDescriptor } from '../channel';
import { CardPanel } from './CardPanel';

export const card: ChannelDescriptor<'Card'> = {
  name: 'Card',
  Panel: CardPanel,
  steps: ['entry', 'started'],
};
