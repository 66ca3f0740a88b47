// A merchant's Vite config for a React app, as small as it gets: React's automatic JSX runtime
// (what @vitejs/plugin-react sets up, besides fast refresh for `vite dev`). The test builds it
// with NODE_ENV=development, so React is its development build and StrictMode mounts, unmounts
// and mounts again, as under `vite dev`.
export default {
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', emptyOutDir: true, minify: false },
};
