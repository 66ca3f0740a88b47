/**
 * The one payment window a checkout opens, for the bank (PayByAccount) or the provider's hosted
 * card page: the same name, so a second opening reuses it, and the same size. Its own module so
 * the card chunk can open it without importing the bank's window (and the chunk loader with it).
 */
export const PAYMENT_WINDOW_NAME = 'paydrop-bank';
export const PAYMENT_WINDOW_FEATURES = 'popup,width=480,height=720';
