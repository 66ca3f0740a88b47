// A merchant's server rendering a page with paydrop/react's PayButton (React's renderToString),
// under traps: each read of window, document or another browser global after React has loaded
// is recorded with the package whose code read it, while importing and while rendering. Prints
// { html, importing, rendering, react } as JSON. MODULES=require loads the package with require().
import { createRequire, registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// REACT_MODULES (the tests' React 18, see test/consumers/react18.ts): react and react-dom are
// found there, for this script and for paydrop/react alike, as on a shop's server on React 18.
const reactModules = process.env.REACT_MODULES;
if (reactModules) {
  const parentURL = pathToFileURL(join(reactModules, 'resolve-from-here.js')).href;
  registerHooks({
    resolve: (specifier, context, next) =>
      /^react(-dom)?(\/|$)/.test(specifier)
        ? next(specifier, { ...context, parentURL })
        : next(specifier, context),
  });
}

const { createElement } = await import('react');
const { renderToString } = await import('react-dom/server');

const BROWSER_GLOBALS = [
  'window',
  'document',
  'location',
  'history',
  'localStorage',
  'sessionStorage',
  'HTMLElement',
  'customElements',
  'requestAnimationFrame',
  'matchMedia',
  'EventSource',
];
const reads = [];
/** 'window by preact': the global, and the package of the code that read it (from the stack). */
function reader(name) {
  const frame = new Error().stack?.split('\n')[3] ?? '';
  const from = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame)?.[1] ?? frame.trim();
  return `${name} by ${from}`;
}
for (const name of BROWSER_GLOBALS) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      reads.push(reader(name));
      return undefined;
    },
  });
}

const { PayButton } =
  process.env.MODULES === 'require'
    ? createRequire(import.meta.url)('paydrop/react')
    : await import('paydrop/react');
const importing = reads.splice(0);
const html = renderToString(
  createElement(
    PayButton,
    {
      endpoint: '/api/checkout',
      order: 'order_1042',
      onSuccess: () => {},
      className: 'pay',
    },
    'Pay',
  ),
);
const { version } = await import('react');
console.log(JSON.stringify({ html, importing, rendering: reads, react: version }));
