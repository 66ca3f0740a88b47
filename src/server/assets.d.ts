// Vite turns `import text from './file?raw'` into the file's text: the card frame's built files.
declare module '*?raw' {
  const text: string;
  export default text;
}
