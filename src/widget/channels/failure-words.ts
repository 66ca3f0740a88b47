/**
 * Each channel's own words for a failed payment, or null when the outcomes' common ones say
 * enough ("it did not go through"). A registry apart from CHANNEL_REGISTRY (index.ts) because it
 * travels in the outcomes chunk, which must not carry the channels' panels. A channel of the
 * protocol's CHANNELS without a line here is a compile error.
 */
import type { FailureCode } from '../../flow/checkout-step';
import type { Channel } from '../../protocol/types';
import type { OutcomeMessages } from '../outcomes/messages';
import { cardFailureWords } from './card/failure-words';

export type ChannelFailureWords = (
  code: FailureCode,
  texts: OutcomeMessages,
) => { readonly title: string; readonly text: string };

export const CHANNEL_FAILURE_WORDS = {
  PayByTransfer: null,
  PayByAccount: null,
  Card: cardFailureWords,
} as const satisfies Record<Channel, ChannelFailureWords | null>;
