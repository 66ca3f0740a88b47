/**
 * A second `open()` while a checkout is open (issue 24): never a second dialog. For the same
 * checkout (the same companion, and the same order or link) the caller gets the open one, and its
 * `onClose` is called when that dialog closes (so a component that asked knows it is gone); the
 * payment is reported once, to the callbacks of the call that opened it. For another order the
 * open checkout is left as it was and the call fails at once with `already_open`: the page asked
 * for something the customer cannot see. Shared by the checkout (open.ts) and the script tag's
 * loader (script-loader.ts), which may be asked again before the checkout's code has arrived.
 */
import type { CheckoutResult } from '../flow/checkout-step';
import type { CheckoutHandle } from './checkout-handle';
import { companionBase } from './companion-request';
import type { OpenOptions } from './options';

/** A checkout that is open: its handle, the options it was opened with, who to tell it closed. */
export interface OpenCheckout {
  readonly handle: CheckoutHandle;
  readonly options: OpenOptions;
  /** Every asking call's onClose, the opening one's first. */
  readonly closers: ((result: CheckoutResult) => void)[];
}

/** What `open(asked)` returns while `current` is open. */
export function openAgain(current: OpenCheckout, asked: OpenOptions): CheckoutHandle {
  const open = current.options;
  const target = asked.order ?? asked.link;
  if (
    open.order !== asked.order ||
    open.link !== asked.link ||
    companionBase(open.endpoint) !== companionBase(asked.endpoint)
  ) {
    const error = {
      code: 'already_open',
      message: `Paydrop.open: a checkout for ${open.order ?? open.link} is open; close it before opening ${target}.`,
    } as const;
    const result: CheckoutResult = { status: 'failed', error, payment: null };
    // After open() has returned, as every other outcome reaches the page.
    queueMicrotask(() => {
      asked.onFailure?.(error);
      asked.onClose?.(result);
    });
    return { close: () => {}, result: Promise.resolve(result) };
  }
  // The same function once: a page that opens twice with one options object hears one close.
  if (asked.onClose && !current.closers.includes(asked.onClose))
    current.closers.push(asked.onClose);
  return current.handle;
}
