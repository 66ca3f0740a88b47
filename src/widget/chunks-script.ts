/**
 * The script-tag build's loader: chunks are ES modules published beside paydrop.js
 * (paydrop-fr.js …), found from the URL the script itself was loaded from. The card and QR
 * chunks bring no Preact of their own: each is handed this bundle's Preact, hooks and signals
 * (chunk-host.ts) before it renders, so there is one renderer and one signal graph on the page.
 */
import { signal, useSignal } from '@preact/signals';
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { HostModules } from './chunk-host';
import type { CardChunk, DeclarativeChunk, OutcomesChunk, QrChunk } from './chunks';
import type { Messages } from './messages/en';

/**
 * The chunks' file names, content-hashed (so a server may cache them for good): put here by the
 * build (vite.config.ts, chunkNames) from the chunks build's paydrop-chunks.json.
 */
declare const PAYDROP_CHUNKS: Readonly<
  Record<'fr' | 'card' | 'qr' | 'outcomes' | 'return' | 'declarative', string>
>;

// Read while the script runs: document.currentScript is only set then.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;

const HOST: HostModules = { h, useRef, useLayoutEffect, signal, useSignal };

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
  return chunk<{ fr: Messages }>(PAYDROP_CHUNKS.fr).then((module) => module.fr);
}

export function loadCardChunk(): Promise<CardChunk> {
  return hosted(PAYDROP_CHUNKS.card);
}

export function loadQrChunk(): Promise<QrChunk> {
  return hosted(PAYDROP_CHUNKS.qr);
}

export function loadOutcomesChunk(): Promise<OutcomesChunk> {
  return chunk(PAYDROP_CHUNKS.outcomes);
}

export function loadReturnChunk(): Promise<typeof import('./return')> {
  return chunk(PAYDROP_CHUNKS.return);
}

export function loadDeclarativeChunk(): Promise<DeclarativeChunk> {
  return chunk(PAYDROP_CHUNKS.declarative);
}
