// Vite turns `import css from './x.css?inline'` into the minified stylesheet as a string.
declare module '*.css?inline' {
  const css: string;
  export default css;
}
