import { useSignal } from '@preact/signals';
import { type ComponentChildren, h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Messages } from '../messages';

export function Waiting({ text }: { readonly text: string }) {
  return (
    <div class="state">
      <div class="spinner" aria-hidden="true" />
      <p tabIndex={-1} data-step-heading>
        {text}
      </p>
    </div>
  );
}

interface LazyProps<T> {
  /** The chunk, or a promise of it; given at once (loaded before, or built in), it shows at once. */
  readonly load: () => T | Promise<T>;
  readonly messages: Messages;
  /** The chunk could not be loaded (offline, or a blocked file); the host decides what then. */
  readonly failed: () => void;
  readonly children: (loaded: T) => ComponentChildren;
}

/** Renders what a lazily loaded chunk brings; until then, a spinner. */
export function Lazy<T>({ load, messages, failed, children }: LazyProps<T>) {
  const loaded = useSignal<{ readonly value: T } | null>(null);
  const asked = useRef<T | Promise<T> | null>(null);
  asked.current ??= load();
  const now = asked.current;
  // An answer after unmount is dropped.
  useLayoutEffect(() => {
    if (!(now instanceof Promise)) return;
    let live = true;
    now.then(
      (value) => {
        if (live) loaded.value = { value };
      },
      () => {
        if (live) failed();
      },
    );
    return () => {
      live = false;
    };
  }, [now]);
  const current = now instanceof Promise ? loaded.value : { value: now };
  return current ? children(current.value) : <Waiting text={messages.loading} />;
}
