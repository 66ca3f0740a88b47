/**
 * Code only some customers need, loaded when they need it. In the npm build these are ordinary
 * dynamic imports that the merchant's bundler splits; the script-tag build swaps this module for
 * chunks-script.ts, which loads the same modules from beside paydrop.js.
 */
import type { Messages } from './messages/en';

/** What the card chunk gives the dialog: the card step (the provider's hosted page, or direct entry). */
export type CardChunk = Pick<typeof import('./channels/card/chunk'), 'CardEntryStep'>;

/** What the declarative chunk gives the script tag's click listener (src/embed.ts). */
export type DeclarativeChunk = typeof import('./declarative-core');

/** What the outcomes chunk gives the dialog: the words of a failed or expired payment. */
export type OutcomesChunk = Pick<typeof import('./outcomes'), 'outcomeMessages' | 'outcomeWords'>;

/** What the QR chunk gives the bank panel. */
export type QrChunk = Pick<typeof import('./qr'), 'QrCode' | 'qrMessages'>;

export function loadFrench(): Promise<Messages> {
  return import('./messages/fr').then((module) => module.fr);
}

export function loadCardChunk(): Promise<CardChunk> {
  return import('./channels/card/chunk');
}

export function loadQrChunk(): Promise<QrChunk> {
  return import('./qr');
}

export function loadOutcomesChunk(): Promise<OutcomesChunk> {
  return import('./outcomes');
}

export function loadReturnChunk(): Promise<typeof import('./return')> {
  return import('./return');
}

export function loadDeclarativeChunk(): Promise<DeclarativeChunk> {
  return import('./declarative-core');
}
