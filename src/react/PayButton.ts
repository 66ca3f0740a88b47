import {
  type ComponentPropsWithoutRef,
  createElement,
  type ForwardRefExoticComponent,
  forwardRef,
  type MouseEvent,
  type RefAttributes,
} from 'react';
import type { OpenOptions } from '../index';
import { usePaydrop } from './use-paydrop';

/** `open()`'s options, and whatever a `<button>` takes besides. */
export type PayButtonProps = OpenOptions &
  Omit<ComponentPropsWithoutRef<'button'>, keyof OpenOptions>;

// Every option of open(), once: a new option that is not listed here fails the typecheck, so it
// can never end up as an attribute of the button instead.
const OPTION_NAMES = {
  endpoint: true,
  order: true,
  link: true,
  customer: true,
  locale: true,
  messages: true,
  onSuccess: true,
  onFailure: true,
  onPending: true,
  onClose: true,
  onEvent: true,
} satisfies Record<keyof OpenOptions, true>;

/**
 * A button that opens the checkout for an order (or a payment link) when clicked, and closes it
 * when unmounted. Server rendering gives a plain `<button type="button">`. An `onClick` of your
 * own runs first; `event.preventDefault()` in it keeps the checkout closed.
 * @example
 * <PayButton endpoint="/api/checkout" order="order_1042" onSuccess={(payment) => setPaid(payment)}>
 *   Pay now
 * </PayButton>
 */
export const PayButton: ForwardRefExoticComponent<
  PayButtonProps & RefAttributes<HTMLButtonElement>
> = forwardRef<HTMLButtonElement, PayButtonProps>(function PayButton(props, ref) {
  const options: Record<string, unknown> = {};
  const button: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    (name in OPTION_NAMES ? options : button)[name] = value;
  }
  const checkout = usePaydrop(options as unknown as OpenOptions);
  const { onClick } = props;
  return createElement('button', {
    type: 'button',
    'aria-haspopup': 'dialog',
    ...button,
    ref,
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event);
      if (!event.defaultPrevented) checkout.open();
    },
  });
});
