import type { ComponentType } from 'preact';
import type { HostPreact } from './CardFields';
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
export function createChallengeFrame(preact: HostPreact): ComponentType<ChallengeFrameProps> {
  const { h, Component } = preact;
  return class ChallengeFrame extends Component<ChallengeFrameProps> {
    private frame: HTMLIFrameElement | null = null;
    private done = false;

    private onMessage = (event: MessageEvent) => {
      const { url, reference, onComplete } = this.props;
      if (this.done) return;
      const expected = { origin: new URL(url).origin, frame: this.frame?.contentWindow, reference };
      if (!isChallengeCompletion(event, expected)) return;
      this.done = true;
      onComplete();
    };

    override componentDidMount(): void {
      addEventListener('message', this.onMessage);
    }

    override componentWillUnmount(): void {
      removeEventListener('message', this.onMessage);
    }

    override render() {
      const { url, title } = this.props;
      return h('iframe', {
        class: 'challenge-frame',
        title,
        src: url,
        referrerpolicy: 'no-referrer',
        ref: (element: HTMLIFrameElement | null) => {
          this.frame = element;
        },
      });
    }
  };
}
