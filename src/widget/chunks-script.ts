/**
 * The script-tag build's chunk loader: chunks are ES modules published in the checkout's own
 * folder (paydrop-<hash>/fr.js …, beside paydrop-<hash>/checkout.js), found from the checkout
 * module's URL. The card and QR
 * chunks bring no Preact of their own: each is handed this bundle's Preact, hooks and signals
 * (chunk-host.ts) before it renders, so there is one renderer and one signal graph on the page.
 */
import { signal, useComputed, useSignal } from '@preact/signals';
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { HostModules } from './chunk-host';
import type { CardChunk, OutcomesChunk, QrChunk, TransferChunk } from './chunks';
import type { Messages } from './messages/en';

type ChunkName = 'fr' | 'card' | 'qr' | 'transfer' | 'outcomes' | 'return';

// The checkout is itself a module of the chunks' folder (paydrop-<hash>/checkout.js, loaded by
// the script tag's loader, src/embed.ts), so a chunk is a name relative to this module's URL:
// the folder's name is nowhere in this code, and the build may name the folder after the
// checkout's content as well as the chunks'. Held in a variable: Vite would otherwise take
// `new URL(…, import.meta.url)` for an asset of its own to bundle.
const checkoutUrl = import.meta.url;

const HOST: HostModules = { h, useRef, useLayoutEffect, signal, useSignal, useComputed };

function chunk<T>(name: ChunkName): Promise<T> {
  const url = new URL(`./${name}.js`, checkoutUrl);
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
