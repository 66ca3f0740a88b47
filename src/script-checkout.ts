// The script tag's checkout: the module its loader (src/embed.ts) imports on intent or idle,
// published as paydrop-<hash>/checkout.js beside the chunks it loads. Named exports only.
export { openStarted, resumeStarted } from './widget/open';
