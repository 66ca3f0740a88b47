import { defineConfig } from 'vite';

// The widget's builds (script tag and ES module) are added with the widget; until then Vite
// serves the placeholder demo page during development.
export default defineConfig({
  root: '.',
  server: { host: '127.0.0.1' },
});
