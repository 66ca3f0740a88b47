// Vite turns `import text from './file?raw'` into the file's text: the card frame's built files.
declare module '*?raw' {
  const text: string;
  export default text;
}

// Vite's glob import (src/server/http/script-files.ts): the built script files, each as text.
interface ImportMeta {
  glob(
    patterns: string | readonly string[],
    options: { readonly query: '?raw'; readonly import: 'default' },
  ): Record<string, () => Promise<unknown>>;
}
