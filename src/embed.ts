// The script-tag entry: the one file that touches window when it loads. It defines
// window.Paydrop and makes [data-paydrop-order] buttons open the checkout. Only the click
// listener is here: what a click does (declarative-core.ts) is loaded on the first click, as
// paydrop-declarative.js, and handed this bundle's open and resume.
import { type DeclarativeChunk, loadDeclarativeChunk } from '#chunks';
import { RETURN_PARAM } from './protocol/contract';
import { declared, SELECTOR } from './widget/declarative-core';
import { open, resume } from './widget/open';

declare global {
  interface Window {
    Paydrop?: { open: typeof open; resume: typeof resume; version: string };
  }
}

let declarative: Promise<DeclarativeChunk> | undefined;

/** Runs `use` once the declarative chunk is here; a failed load may be tried again. */
function withDeclarative(use: (chunk: DeclarativeChunk) => void): void {
  declarative ??= loadDeclarativeChunk();
  declarative.then(use, (error: unknown) => {
    declarative = undefined;
    console.error(error);
  });
}

/** Back from the bank after a full-page redirect, on a page with declarative buttons. */
function resumeDeclared(): void {
  if (document.querySelector(SELECTOR))
    withDeclarative((chunk) => chunk.resumeOn(document, resume));
}

if (!window.Paydrop) {
  window.Paydrop = { open, resume, version: '0.1.0' };
  // Loaded async or deferred, the document may already be parsed; a listener on the document
  // needs no waiting either way.
  document.addEventListener('click', (event) => {
    const target = declared(event);
    if (!target) return;
    event.preventDefault();
    withDeclarative((chunk) => chunk.openFrom(target, open));
  });
  if (location.search.includes(`${RETURN_PARAM}=`)) {
    if (document.readyState === 'loading')
      document.addEventListener('DOMContentLoaded', resumeDeclared);
    else resumeDeclared();
  }
}
