import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '/work/main/scripts/chromium.mjs';
const b = await chromium.launch({ executablePath: process.env.EXE, args: [...CHROMIUM_ARGS].filter((a) => a !== '--headless'), headless: true });
const n = Number(process.env.N ?? 10);
for (let i = 0; i < n; i++) { const c = await b.newContext({ reducedMotion: 'reduce' }); const p = await c.newPage(); await p.goto('about:blank'); await p.setContent('<h1>x</h1>'); await c.close(); }
console.log(b.version());
await b.close();
