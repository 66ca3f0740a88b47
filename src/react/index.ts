// paydrop/react: the checkout for React 18 and 19 apps. Named exports only; importing does
// nothing, and rendering on the server gives a plain button. The checkout itself is the npm
// entry's open(): its Preact stays inside the dialog's shadow root, out of React's tree.
// 'use client': a Next.js server component may render <PayButton>; its hooks run in the browser.
'use client';

export { PayButton, type PayButtonProps } from './PayButton';
export { type Paydrop, usePaydrop } from './use-paydrop';
