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

/** Everything of Preact, its hooks and signals that a chunk may import. */
export interface HostModules {
  readonly h: typeof Preact.h;
  readonly Fragment: typeof Preact.Fragment;
  readonly useRef: typeof Hooks.useRef;
  readonly useMemo: typeof Hooks.useMemo;
  readonly useLayoutEffect: typeof Hooks.useLayoutEffect;
  readonly signal: typeof Signals.signal;
  readonly computed: typeof Signals.computed;
  readonly effect: typeof Signals.effect;
  readonly batch: typeof Signals.batch;
  readonly untracked: typeof Signals.untracked;
  readonly useSignal: typeof Signals.useSignal;
  readonly useComputed: typeof Signals.useComputed;
}

// biome-ignore-start lint/style/useConst: assigned once, by adopt, before any chunk code runs.
export let h: HostModules['h'];
export let Fragment: HostModules['Fragment'];
export let useRef: HostModules['useRef'];
export let useMemo: HostModules['useMemo'];
export let useLayoutEffect: HostModules['useLayoutEffect'];
export let signal: HostModules['signal'];
export let computed: HostModules['computed'];
export let effect: HostModules['effect'];
export let batch: HostModules['batch'];
export let untracked: HostModules['untracked'];
export let useSignal: HostModules['useSignal'];
export let useComputed: HostModules['useComputed'];
// biome-ignore-end lint/style/useConst: assigned once, by adopt.

/** Takes the page's Preact and signals; called by chunks-script.ts as the chunk arrives. */
export function adopt(host: HostModules): void {
  ({
    h,
    Fragment,
    useRef,
    useMemo,
    useLayoutEffect,
    signal,
    computed,
    effect,
    batch,
    untracked,
    useSignal,
    useComputed,
  } = host);
}
