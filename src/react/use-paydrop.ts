import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type CheckoutHandle, type OpenOptions, open as openCheckout } from '../index';

/** What `usePaydrop` gives a component. */
export interface Paydrop {
  /**
   * Opens the checkout with the hook's options, `overrides` on top. Call it in a click handler:
   * the bank's window can only be opened in one. While this component's checkout is open it
   * does nothing. While another component's checkout is open: for the same order this one follows
   * it (`isOpen` until it closes); for another order `onFailure` gets `already_open`, nothing opens.
   * A wrong option throws the TypeError `open()` throws, and nothing opens.
   */
  open(overrides?: Partial<OpenOptions>): void;
  /** Closes the checkout, as the customer would (`onPending` if a payment is under way, then `onClose`). */
  close(): void;
  /** Whether this component's checkout is open. */
  readonly isOpen: boolean;
}

const CALLBACKS = ['onSuccess', 'onFailure', 'onPending', 'onClose', 'onEvent'] as const;

/**
 * The checkout as a hook: `open()` on a click, and the checkout closes when the component
 * unmounts. The options may change from render to render (inline callbacks are fine): the
 * callbacks called are the latest render's, and nothing reopens.
 * @example
 * function Checkout({ order }: { order: string }) {
 *   const paydrop = usePaydrop({ endpoint: '/api/checkout', order, onSuccess: (payment) => navigate(`/thanks/${payment.reference}`) });
 *   return <button type="button" onClick={() => paydrop.open()} disabled={paydrop.isOpen}>Pay</button>;
 * }
 */
export function usePaydrop(options: OpenOptions): Paydrop {
  const latest = useRef(options);
  // After the commit, not during render (React may render and throw a render away); a click
  // always comes after the commit.
  useEffect(() => {
    latest.current = options;
  });
  const handle = useRef<CheckoutHandle | null>(null);
  const [isOpen, setIsOpen] = useState(false);

  const open = useCallback((overrides: Partial<OpenOptions> = {}) => {
    if (handle.current) return;
    const current = (name: (typeof CALLBACKS)[number]) =>
      (overrides[name] ?? latest.current[name]) as ((argument: never) => void) | undefined;
    const given: Record<string, unknown> = { ...latest.current, ...overrides };
    for (const name of CALLBACKS) {
      // Anything but a function is left for open() to refuse with its own TypeError.
      if (given[name] !== undefined && typeof given[name] !== 'function') continue;
      given[name] = (argument: never) => {
        if (name === 'onClose' && handle.current === opened) {
          handle.current = null;
          setIsOpen(false);
        }
        current(name)?.(argument);
      };
    }
    const opened = openCheckout(given as unknown as OpenOptions);
    handle.current = opened;
    setIsOpen(true);
  }, []);

  const close = useCallback(() => handle.current?.close(), []);

  // Unmounting closes the checkout. Nothing opens on mount, so StrictMode's extra mount and
  // unmount in development find nothing to close and open nothing twice.
  useEffect(
    () => () => {
      const opened = handle.current;
      handle.current = null;
      opened?.close();
    },
    [],
  );

  return useMemo(() => ({ open, close, isOpen }), [open, close, isOpen]);
}
