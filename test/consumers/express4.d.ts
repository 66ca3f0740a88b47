// express4 is Express 4 installed under another name (npm:express@4); its API, as far as the
// tests use it, is Express 5's.
declare module 'express4' {
  import express from 'express';
  export default express;
}
