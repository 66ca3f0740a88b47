import { useSignal } from '@preact/signals';
import { type ComponentChildren, h } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
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

interface LazyProps<T extends object> {
  /** A chunk's module: an object, so never mistaken for "not loaded yet". */
  readonly load: () => Promise<T>;
  readonly messages: Messages;
  /** The chunk could not be loaded (offline, or a blocked file); the host decides what then. */
  readonly failed: () => void;
  readonly children: (loaded: T) => ComponentChildren;
}

/** Renders what a lazily loaded chunk brings; until then, a spinner. */
export function Lazy<T extends object>({ load, messages, failed, children }: LazyProps<T>) {
  const loaded = useSignal<T | null>(null);
  // Started as the component mounts, like the spinner; an answer after unmount is dropped.
  useLayoutEffect(() => {
    let live = true;
    load().then(
      (value) => {
        if (live) loaded.value = value;
      },
      () => {
        if (live) failed();
      },
    );
    return () => {
      live = false;
    };
  }, []);
  const current = loaded.value;
  // What the chunk renders, as it is: a component may return any children, no Fragment needed.
  return current ? children(current) : <Waiting text={messages.loading} />;
}
