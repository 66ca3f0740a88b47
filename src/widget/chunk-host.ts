/**
 * What a lazily loaded chunk of the script tag (paydrop-card.js, paydrop-qr.js) gets when its
 * code imports 'preact', 'preact/hooks' or '@preact/signals': the page's own, handed over by
 * chunks-script.ts through `adopt` before the chunk renders anything. The chunks build aliases
 * those three imports to this module (vite.config.ts), so a chunk carries no copy of its own: a
 * second Preact would be a renderer whose hooks and signals the page's never sees. A chunk's code
 * therefore uses these names only inside functions (components, factories), never while the
 * module loads. The npm build imports the packages themselves and never sees this module.
 */
import type * as Signals from '@preact/signals';
import type * as Preact from 'preact';
import type * as Hooks from 'preact/hooks';

/**
 * What of Preact, its hooks and signals the chunks import: only this, so the main bundle hands
 * over nothing they do not use (a chunk importing anything else fails to build, by design).
 */
export interface HostModules {
  readonly h: typeof Preact.h;
  readonly useRef: typeof Hooks.useRef;
  readonly useLayoutEffect: typeof Hooks.useLayoutEffect;
  readonly signal: typeof Signals.signal;
  readonly useSignal: typeof Signals.useSignal;
  readonly useComputed: typeof Signals.useComputed;
}

// biome-ignore-start lint/style/useConst: assigned once, by adopt, before any chunk code runs.
export let h: HostModules['h'];
export let useRef: HostModules['useRef'];
export let useLayoutEffect: HostModules['useLayoutEffect'];
export let signal: HostModules['signal'];
export let useSignal: HostModules['useSignal'];
export let useComputed: HostModules['useComputed'];
// biome-ignore-end lint/style/useConst: assigned once, by adopt.

/** Takes the page's Preact and signals; called by chunks-script.ts as the chunk arrives. */
export function adopt(host: HostModules): void {
  ({ h, useRef, useLayoutEffect, signal, useSignal, useComputed } = host);
}
