/**
 * What jsdom lacks and the widget uses, filled in honestly and no further. Imported for its side
 * effects at the top of every component test; each stub does what the browser would observably do
 * and nothing more, so a test can still fail on the widget's own behaviour.
 *
 * - HTMLDialogElement.showModal / show / close: missing in jsdom 29. showModal sets the `open`
 *   attribute (and throws InvalidStateError on a disconnected dialog, as browsers do); close
 *   removes it and fires `close`. No top layer, no inertness, no focus moving: jsdom has none.
 * - navigator.clipboard: missing; `stubClipboard` installs a writeText the test controls.
 * - EventSource: missing; `FakeEventSource` records the URL and lets a test push events.
 * - Radio-group arrow keys: jsdom does not move the checked radio on ArrowDown/ArrowRight;
 *   `pressArrow` does what the browser does (check the next radio in the group, fire input and
 *   change) unless the keydown was cancelled.
 */
import { cleanup, fireEvent } from '@testing-library/preact';
import { afterEach } from 'vitest';

if (typeof HTMLDialogElement !== 'undefined') {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & Record<string, unknown>;
  if (typeof proto.showModal !== 'function') {
    proto.showModal = function showModal(this: HTMLDialogElement) {
      if (!this.isConnected) {
        throw new DOMException('The dialog is not in a document.', 'InvalidStateError');
      }
      this.setAttribute('open', '');
    };
  }
  if (typeof proto.show !== 'function') {
    proto.show = function show(this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
  }
  if (typeof proto.close !== 'function') {
    proto.close = function close(this: HTMLDialogElement, returnValue?: string) {
      if (!this.hasAttribute('open')) return;
      this.removeAttribute('open');
      if (returnValue !== undefined) this.returnValue = returnValue;
      this.dispatchEvent(new Event('close'));
    };
  }
}

/** Installs navigator.clipboard with the given writeText; returns the function that removes it. */
export function stubClipboard(writeText: (text: string) => Promise<void>): () => void {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText },
  });
  return () => {
    Reflect.deleteProperty(navigator, 'clipboard');
  };
}

/** An EventSource that connects nowhere: a test pushes named events and checks it was closed. */
export class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeEventSource.instances.push(this);
  }
  close(): void {
    this.closed = true;
  }
  /** The server sends `event: <type>` with `data: <data>`. */
  emit(type: string, data: string): void {
    if (!this.closed) this.dispatchEvent(new MessageEvent(type, { data }));
  }
}

/**
 * What a browser does on ArrowDown/ArrowRight in a radio group: the next radio of the same name
 * (wrapping) becomes checked, with input and change events. jsdom does not implement it.
 */
export function pressArrow(radio: HTMLInputElement, key: 'ArrowDown' | 'ArrowRight' = 'ArrowDown') {
  const proceed = fireEvent.keyDown(radio, { key });
  if (!proceed) return;
  const group = [
    ...(radio.form ?? radio.ownerDocument).querySelectorAll<HTMLInputElement>(
      `input[type="radio"][name="${radio.name}"]`,
    ),
  ];
  const next = group[(group.indexOf(radio) + 1) % group.length];
  if (!next || next === radio) return;
  next.checked = true;
  next.focus();
  fireEvent.input(next);
  fireEvent.change(next);
}

/** Lets every pending promise continuation run (real timers only). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  cleanup();
});
