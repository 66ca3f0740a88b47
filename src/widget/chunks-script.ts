/**
 * The script-tag build's loader: chunks are ES modules published beside paydrop.js
 * (paydrop-fr.js …), found from the URL the script itself was loaded from. The card and QR
 * chunks bring no Preact of their own: each is handed this bundle's Preact, hooks and signals
 * (chunk-host.ts) before it renders, so there is one renderer and one signal graph on the page.
 */
import { signal, useComputed, useSignal } from '@preact/signals';
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { HostModules } from './chunk-host';
import type { CardChunk, DeclarativeChunk, OutcomesChunk, QrChunk, TransferChunk } from './chunks';
import type { Messages } from './messages/en';

// Read while the script runs: document.currentScript is only set then.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;

const HOST: HostModules = { h, useRef, useLayoutEffect, signal, useSignal, useComputed };

function chunk<T>(file: string): Promise<T> {
  return import(/* @vite-ignore */ new URL(file, scriptUrl || document.baseURI).href) as Promise<T>;
}

/** A chunk that renders: it takes this bundle's Preact and signals first. */
function hosted<T>(file: string): Promise<T> {
  return chunk<T & { adopt(host: HostModules): void }>(file).then((module) => {
    module.adopt(HOST);
    return module;
  });
}

export function loadFrench(): Promise<Messages> {
  return chunk<{ fr: Messages }>('paydrop-fr.js').then((module) => module.fr);
}

export function loadCardChunk(): Promise<CardChunk> {
  return hosted('paydrop-card.js');
}

let transfer: TransferChunk | Promise<TransferChunk> | undefined;

/**
 * Once loaded, the transfer chunk is given at once: a panel drawn again does not wait. Asked for
 * in the choosing click, then by the panel: one request; a failed one is asked again next time
 * (and is no unhandled rejection when only the click asked).
 */
export function loadTransferChunk(): TransferChunk | Promise<TransferChunk> {
  if (!transfer) {
    const loading = hosted<TransferChunk>('paydrop-transfer.js').then(
      (chunk) => {
        transfer = chunk;
        return chunk;
      },
      (error: unknown) => {
        transfer = undefined;
        throw error;
      },
    );
    loading.catch(() => {});
    transfer = loading;
  }
  return transfer;
}

export function loadQrChunk(): Promise<QrChunk> {
  return hosted('paydrop-qr.js');
}

export function loadOutcomesChunk(): Promise<OutcomesChunk> {
  return chunk('paydrop-outcomes.js');
}

export function loadReturnChunk(): Promise<typeof import('./return')> {
  return chunk('paydrop-return.js');
}

export function loadDeclarativeChunk(): Promise<DeclarativeChunk> {
  return chunk('paydrop-declarative.js');
}
