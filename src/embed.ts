// The script-tag entry, the loader: the one file that touches window when it loads. It defines
// window.Paydrop (src/widget/script-loader.ts), makes [data-paydrop-order] buttons open the
// checkout, and fetches the checkout's code (paydrop-<hash>/checkout.js) when it is likely to be
// needed: a pointer over or focus on such a button, or the browser's first idle moment after the
// page has loaded (issue 25). Until then the page has paid for this file alone.
import { RETURN_PARAM } from './protocol/contract';
import { declared, openFrom, resumeOn, SELECTOR } from './widget/declarative-core';
import { createLoader, type ScriptPaydrop } from './widget/script-loader';

declare global {
  interface Window {
    Paydrop?: ScriptPaydrop;
  }
}

/**
 * The checkout's folder, named after its content (`paydrop-<hash>/`), so a server may cache it
 * for good: put here by the build (vite.config.ts, chunkNames).
 */
declare const PAYDROP_CHUNK_FOLDER: string;

if (!window.Paydrop) {
  // Read while the script runs: document.currentScript is only set then. The checkout is found
  // beside the script wherever it is served from (the companion's mount, a CDN).
  const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;
  const { paydrop, load } = createLoader(
    new URL(`${PAYDROP_CHUNK_FOLDER}checkout.js`, scriptUrl).href,
    '0.1.0',
  );
  window.Paydrop = paydrop;

  const warm = () => {
    load().then(() => {
      document.removeEventListener('pointerover', onIntent);
      document.removeEventListener('focusin', onIntent);
    }, console.error);
  };
  const onIntent = (event: Event) => {
    if (declared(event)) warm();
  };
  // Loaded async or deferred, the document may already be parsed; listeners on the document
  // need no waiting either way.
  document.addEventListener('pointerover', onIntent);
  document.addEventListener('focusin', onIntent);
  document.addEventListener('click', (event) => {
    const target = declared(event);
    if (!target) return;
    event.preventDefault();
    openFrom(target, paydrop.open);
  });

  // A page that calls Paydrop.open from its own code has no button to watch: the checkout comes
  // when the page has loaded and the browser has nothing else to do, unless the customer asked
  // to save data.
  const idle = () => {
    if ((navigator as { connection?: { saveData?: boolean } }).connection?.saveData) return;
    (window.requestIdleCallback ?? setTimeout)(warm);
  };
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });

  /** Back from the bank after a full-page redirect, on a page with declarative buttons. */
  const resumeDeclared = () => {
    if (document.querySelector(SELECTOR)) resumeOn(document, paydrop.resume);
  };
  if (location.search.includes(`${RETURN_PARAM}=`)) {
    if (document.readyState === 'loading')
      document.addEventListener('DOMContentLoaded', resumeDeclared);
    else resumeDeclared();
  }
}
