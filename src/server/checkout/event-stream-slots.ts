/**
 * A checkout's event-stream places on this instance (issue 20, item 4: one token held 3,000 open
 * streams). Counted per instance, in memory: a count in the shared store would outlive an
 * instance killed with its streams open (nothing would give those places back), and a stranger
 * spread over N instances still holds at most N × the limit.
 */
import { CheckoutError } from '../http';

/** How long a refused browser waits before it asks for a stream again, in seconds. */
const STREAM_RETRY_AFTER_SECONDS = 5;

/**
 * `take(checkoutId)` takes one of the checkout's `maxStreams` places, or refuses with 429;
 * it answers the release, which gives the place back once however often it is called.
 */
export function createEventStreamSlots(maxStreams: number): (checkoutId: string) => () => void {
  const openStreams = new Map<string, number>();
  return function take(checkoutId: string): () => void {
    const held = openStreams.get(checkoutId) ?? 0;
    if (held >= maxStreams) {
      throw new CheckoutError(
        'rate_limited',
        `This checkout already has ${maxStreams} open event streams; close one or try again shortly.`,
        { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
      );
    }
    openStreams.set(checkoutId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (openStreams.get(checkoutId) ?? 1) - 1;
      if (left <= 0) openStreams.delete(checkoutId);
      else openStreams.set(checkoutId, left);
    };
  };
}
