// A merchant's Vite config for a React app, as small as it gets: React's automatic JSX runtime
// (what @vitejs/plugin-react sets up, besides fast refresh for `vite dev`). The test builds it
// with NODE_ENV=development, so React is its development build and StrictMode mounts, unmounts
// and mounts again, as under `vite dev`. REACT_MODULES (the tests' React 18, see
// test/consumers/react18.ts) points react and react-dom at another install, as a shop on React
// 18 has them; OUT_DIR keeps its build apart.
const modules = process.env.REACT_MODULES;

export default {
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: modules
    ? {
        alias: [
          { find: /^react-dom(\/.*)?$/, replacement: `${modules}/react-dom$1` },
          { find: /^react(\/.*)?$/, replacement: `${modules}/react$1` },
        ],
      }
    : {},
  build: { outDir: process.env.OUT_DIR ?? 'dist', emptyOutDir: true, minify: false },
};
