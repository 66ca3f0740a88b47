import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { isChallengeCompletion } from './challenge-message';

export interface ChallengeFrameProps {
  /** The companion's challenge page for this payment (same origin as the companion). */
  readonly url: string;
  readonly reference: string;
  /** The frame's accessible name. */
  readonly title: string;
  /** The challenge is over; the companion finalizes and the provider says how it went. */
  readonly onComplete: () => void;
}

/**
 * The card issuer's challenge, framed from the companion's origin (the merchant's CSP needs no
 * bank's domain). That page holds the issuer's markup in a sandboxed frame of its own, without
 * same-origin access and without top navigation, and relays only the completion message. This
 * outer frame is the companion's own page and is not sandboxed: sandboxing a same-origin page
 * with scripts allowed protects nothing (it could lift its own sandbox), and Chromium warns.
 * Sized as EMV 3-D Secure's 390 × 400 challenge window, which fits a phone.
 */
export function ChallengeFrame(props: ChallengeFrameProps) {
  const frame = useRef<HTMLIFrameElement | null>(null);
  // The listener lives as long as the frame and always reads the latest props.
  const latest = useRef(props);
  latest.current = props;
  useLayoutEffect(() => {
    let done = false;
    const onMessage = (event: MessageEvent) => {
      const { url, reference, onComplete } = latest.current;
      if (done) return;
      const expected = {
        origin: new URL(url).origin,
        frame: frame.current?.contentWindow,
        reference,
      };
      if (!isChallengeCompletion(event, expected)) return;
      done = true;
      onComplete();
    };
    addEventListener('message', onMessage);
    return () => removeEventListener('message', onMessage);
  }, []);
  return h('iframe', {
    class: 'challenge-frame',
    title: props.title,
    src: props.url,
    referrerpolicy: 'no-referrer',
    ref: frame,
  });
}
