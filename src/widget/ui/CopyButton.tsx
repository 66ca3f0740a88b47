import { useSignal } from '@preact/signals';
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Messages } from '../messages/en';
import { fill } from '../messages/fill';

interface CopyButtonProps {
  readonly value: string;
  /** What is copied, in words, e.g. "Account number". */
  readonly what: string;
  /**
   * What is announced once copied, a whole sentence per value so that each language can make it
   * agree ("Banque copiée", "Montant copié"), e.g. `messages.copiedBank`.
   */
  readonly copiedText: string;
  readonly messages: Messages;
  readonly announce: (text: string) => void;
}

/** Copies a value and says so, visibly for two seconds and to screen readers. */
export function CopyButton({ value, what, copiedText, messages, announce }: CopyButtonProps) {
  const copied = useSignal(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useLayoutEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      copied.value = true;
      announce(copiedText);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        copied.value = false;
      }, 2000);
    } catch {
      announce(messages.copyFailed);
    }
  };

  return (
    <button
      type="button"
      class="secondary copy"
      // The name holds what the button shows, "Copy" or "Copied" (WCAG 2.5.3, label in name).
      aria-label={copied.value ? copiedText : fill(messages.copyLabel, { what })}
      onClick={copy}
    >
      {copied.value ? messages.copied : messages.copy}
    </button>
  );
}
