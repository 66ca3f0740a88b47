// The script-tag entry: the one file that touches window when it loads. It defines
// window.Paydrop and makes [data-paydrop-order] buttons open the checkout.
import { bindDeclarative } from './widget/declarative';
import { open, resume } from './widget/open';

declare global {
  interface Window {
    Paydrop?: { open: typeof open; resume: typeof resume; version: string };
  }
}

if (!window.Paydrop) {
  window.Paydrop = { open, resume, version: '0.1.0' };
  // Loaded async or deferred, the document may already be parsed; a listener on the document
  // needs no waiting either way.
  bindDeclarative(document);
}
