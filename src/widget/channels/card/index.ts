// Card: the card form, its authentication and challenge, in the paydrop-card chunk (chunk.ts),
// loaded by the panel when the customer chooses Card.
import type { ChannelDescriptor } from '../channel';
import { CardPanel } from './CardPanel';

export const card: ChannelDescriptor<'Card'> = {
  name: 'Card',
  // A card.
  mark: 'M2 5h20v14H2zm0 5h20M6 15h4',
  Panel: CardPanel,
  // The provider's card page opens in this click, before any await, so blockers allow it.
  choose: ({ bank, model }) => model.session.peek()?.cardEntry !== 'direct' && bank.prepare(),
  steps: ['entry', 'started'],
};
