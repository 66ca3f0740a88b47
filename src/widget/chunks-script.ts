/**
 * The script-tag build's loader: chunks are ES modules published beside paydrop.js
 * (paydrop-fr.js …), found from the URL the script itself was loaded from.
 */
import type { Messages } from './messages/en';

// Read while the script runs: document.currentScript is only set then.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;

function chunk<T>(file: string): Promise<T> {
  return import(/* @vite-ignore */ new URL(file, scriptUrl || document.baseURI).href) as Promise<T>;
}

export function loadFrench(): Promise<Messages> {
  return chunk<{ fr: Messages }>('paydrop-fr.js').then((module) => module.fr);
}

export function loadCardChunk(): Promise<typeof import('./channels/card')> {
  return chunk('paydrop-card.js');
}

export function loadQrChunk(): Promise<typeof import('./qr')> {
  return chunk('paydrop-qr.js');
}

export function loadReturnChunk(): Promise<typeof import('./return')> {
  return chunk('paydrop-return.js');
}
