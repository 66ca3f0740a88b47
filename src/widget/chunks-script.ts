/**
 * The script-tag build's loader: chunks are ES modules published beside paydrop.js
 * (paydrop-<hash>/fr.js …), found from the URL the script itself was loaded from. The card and QR
 * chunks bring no Preact of their own: each is handed this bundle's Preact, hooks and signals
 * (chunk-host.ts) before it renders, so there is one renderer and one signal graph on the page.
 */
import { signal, useComputed, useSignal } from '@preact/signals';
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { HostModules } from './chunk-host';
import type { CardChunk, DeclarativeChunk, OutcomesChunk, QrChunk, TransferChunk } from './chunks';
import type { Messages } from './messages/en';

/**
 * The chunks' folder beside paydrop.js, named after their content (`paydrop-<hash>/`), so a
 * server may cache them for good: put here by the build (vite.config.ts, chunkNames).
 */
declare const PAYDROP_CHUNK_FOLDER: string;

// buttons.js is declarative-core.ts: what a click on a data-paydrop-* button does.
type ChunkName = 'fr' | 'card' | 'qr' | 'transfer' | 'outcomes' | 'return' | 'buttons';

// Read while the script runs: document.currentScript is only set then. A relative import() would
// resolve against the script's URL only when the script is same-origin or CORS-fetched: a
// <script src> on the companion's own host (no crossorigin attribute) gets about:blank instead.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;

const HOST: HostModules = { h, useRef, useLayoutEffect, signal, useSignal, useComputed };

function chunk<T>(name: ChunkName): Promise<T> {
  const url = new URL(`${PAYDROP_CHUNK_FOLDER}${name}.js`, scriptUrl || document.baseURI);
  return import(/* @vite-ignore */ url.href) as Promise<T>;
}

/** A chunk that renders: it takes this bundle's Preact and signals first. */
function hosted<T>(name: ChunkName): Promise<T> {
  return chunk<T & { adopt(host: HostModules): void }>(name).then((module) => {
    module.adopt(HOST);
    return module;
  });
}

export function loadFrench(): Promise<Messages> {
  return chunk<{ fr: Messages }>('fr').then((module) => module.fr);
}

export function loadCardChunk(): Promise<CardChunk> {
  return hosted('card');
}

let transfer: TransferChunk | Promise<TransferChunk> | undefined;

/**
 * Once loaded, the transfer chunk is given at once: a panel drawn again does not wait. Asked for
 * in the choosing click, then by the panel: one request; a failed one is asked again next time
 * (and is no unhandled rejection when only the click asked).
 */
export function loadTransferChunk(): TransferChunk | Promise<TransferChunk> {
  if (!transfer) {
    const loading = hosted<TransferChunk>('transfer').then(
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
  return hosted('qr');
}

export function loadOutcomesChunk(): Promise<OutcomesChunk> {
  return chunk('outcomes');
}

export function loadReturnChunk(): Promise<typeof import('./return')> {
  return chunk('return');
}

export function loadDeclarativeChunk(): Promise<DeclarativeChunk> {
  return chunk('buttons');
}
