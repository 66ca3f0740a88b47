/**
 * Code only some customers need, loaded when they need it. In the npm build these are ordinary
 * dynamic imports that the merchant's bundler splits; the script-tag build swaps this module for
 * chunks-script.ts, which loads the same modules from beside paydrop.js.
 */
import { TransferPanel } from './channels/transfer/TransferPanel';
import type { Messages } from './messages/en';

/** What the card chunk gives the dialog: the card step (the provider's hosted page, or direct entry). */
export type CardChunk = Pick<typeof import('./channels/card/chunk'), 'CardEntryStep'>;

/** What the outcomes chunk gives the dialog: the words of a failed or expired payment, the end marks. */
export type OutcomesChunk = Pick<
  typeof import('./outcomes'),
  'outcomeMessages' | 'outcomeWords' | 'outcomeMarks'
>;

/** What the transfer chunk gives the dialog: the account to pay into. */
export type TransferChunk = { readonly TransferPanel: typeof TransferPanel };

/** What the QR chunk gives the bank panel. */
export type QrChunk = Pick<typeof import('./qr'), 'QrCode' | 'qrMessages'>;

export function loadFrench(): Promise<Messages> {
  return import('./messages/fr').then((module) => module.fr);
}

export function loadCardChunk(): Promise<CardChunk> {
  return import('./channels/card/chunk');
}

/**
 * The transfer panel. A chunk of its own for the script tag, whose first screen is the list of
 * ways to pay (issue 23); here it is part of the module, as every bank-transfer customer of an
 * npm build needs it and the merchant's bundler decides what to split: no promise to wait for.
 */
export function loadTransferChunk(): TransferChunk | Promise<TransferChunk> {
  return { TransferPanel };
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
