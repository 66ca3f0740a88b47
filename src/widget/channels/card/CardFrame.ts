/**
 * The card frame on the page's side (issue 19): the iframe the companion's card form lives in,
 * and the narrow conversation with it (src/protocol/card-frame.ts). The page never holds a card
 * number, expiry or security code: it asks the frame to submit and hears back what the companion
 * answered, the brand, which fields are complete and the last four digits.
 */
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import {
  CARD_FRAME_PARAMS,
  CARD_FRAME_PATH,
  CARD_FRAME_TAG,
  CARD_FRAME_THEME_KEYS,
  type CardFrameCommand,
  type CardFrameEvent,
  type CardFrameResult,
  type CardFrameTheme,
  checkTheme,
  isCardFrameMessage,
} from '../../../protocol/card-frame';

/** What the page knows of the form: never a value. */
export type CardFrameState = Extract<CardFrameEvent, { type: 'state' }>;

/** A random secret for one frame: it tells this frame's messages from any other window's. */
function frameSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * One frame's link: the secret it was given, the window it must come from, and the submission
 * waiting for its result.
 */
export function createCardFrameLink() {
  const secret = frameSecret();
  let frame: HTMLIFrameElement | null = null;
  let waiting: ((result: CardFrameResult) => void) | null = null;
  let state: CardFrameState | null = null;

  function command(message: CardFrameCommand): boolean {
    const target = frame?.contentWindow;
    if (!target) return false;
    // An opaque origin cannot be named as a target; the frame checks our origin and the secret.
    target.postMessage({ ...message, tag: CARD_FRAME_TAG, secret }, '*');
    return true;
  }

  return {
    secret,
    /** Set when the frame's checks stopped a submission: focus goes back into it. */
    correcting: false,
    attach(element: HTMLIFrameElement | null): void {
      frame = element;
    },
    /** The frame's event in this message, or null when the message is not this frame's. */
    receive(event: MessageEvent): CardFrameEvent | null {
      // Opaque: its origin is the string "null", so the source window and the secret decide.
      const expected = { origin: 'null', source: frame?.contentWindow, secret };
      if (!isCardFrameMessage(event, expected)) return null;
      const data = event.data as CardFrameEvent;
      if (data.type === 'state') state = data;
      if (data.type === 'result' && waiting) {
        const settle = waiting;
        waiting = null;
        settle(data.result);
      }
      return data;
    },
    /** Asks the frame to check the card and send it; resolves with what became of it. */
    submit(customer: unknown): Promise<CardFrameResult> {
      return new Promise((resolve) => {
        waiting = resolve;
        if (!command({ type: 'submit', customer })) {
          waiting = null;
          resolve({ kind: 'network' });
        }
      });
    },
    /**
     * Focus to the first field to correct. Chromium lets a cross-origin frame move focus only
     * once it has it, so the page gives the frame focus first.
     */
    focus(): void {
      frame?.focus();
      command({ type: 'focus' });
    },
    theme: (theme: CardFrameTheme) => command({ type: 'theme', theme }),
    /** The last state the frame reported. */
    state: () => state,
  };
}

export type CardFrameLink = ReturnType<typeof createCardFrameLink>;

/** The merchant's theme, read from the dialog's host where the --paydrop-* properties land. */
export function pageTheme(node: Element | null): CardFrameTheme {
  const host = (node?.getRootNode() as ShadowRoot | undefined)?.host;
  if (!host) return {};
  const style = getComputedStyle(host);
  const given: Record<string, string> = {};
  for (const key of CARD_FRAME_THEME_KEYS) {
    given[key] = style.getPropertyValue(`--paydrop-${key}`);
  }
  return checkTheme(given);
}

export interface CardFrameProps {
  readonly link: CardFrameLink;
  /** The companion's endpoint, absolute: the frame is its page. */
  readonly companionBase: string;
  readonly token: string;
  readonly locale: string;
  /** The frame's accessible name. */
  readonly title: string;
  readonly onEvent: (event: CardFrameEvent) => void;
}

/**
 * The iframe: sandboxed without allow-same-origin (and the document's own CSP sandboxes it again,
 * should a page script strip the attribute), sized to the form as the frame reports its height.
 */
export function CardFrame(props: CardFrameProps) {
  const frame = useRef<HTMLIFrameElement | null>(null);
  const latest = useRef(props);
  latest.current = props;
  useLayoutEffect(() => {
    const element = frame.current;
    if (element) {
      // Set once mounted, when the dialog's theme can be read from its host.
      const fragment = new URLSearchParams({
        [CARD_FRAME_PARAMS.token]: props.token,
        [CARD_FRAME_PARAMS.secret]: props.link.secret,
        [CARD_FRAME_PARAMS.origin]: location.origin,
        [CARD_FRAME_PARAMS.locale]: props.locale,
        ...pageTheme(element),
      });
      // The fragment never reaches a server, a log or a Referer.
      element.src = `${props.companionBase}${CARD_FRAME_PATH}#${fragment}`;
    }
    const onMessage = (event: MessageEvent) => {
      const { link, onEvent } = latest.current;
      const received = link.receive(event);
      if (!received) return;
      if (received.type === 'height' && frame.current) {
        const height = Math.min(Math.max(Math.round(Number(received.height)) || 0, 0), 2000);
        // CSSOM, not a style attribute: the page's CSP needs no 'unsafe-inline'.
        frame.current.style.height = `${height}px`;
      }
      onEvent(received);
    };
    addEventListener('message', onMessage);
    return () => removeEventListener('message', onMessage);
  }, []);
  return h('iframe', {
    class: 'card-frame',
    title: props.title,
    sandbox: 'allow-scripts allow-forms',
    referrerpolicy: 'no-referrer',
    ref: (element: HTMLIFrameElement | null) => {
      frame.current = element;
      props.link.attach(element);
    },
  });
}
