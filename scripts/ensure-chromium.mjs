// Makes sure a Chromium is there before the tests run: Playwright's own download where the
// network allows it, Debian's package where it does not.
import { spawnSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';

function run(command, args) {
  console.log(`ensure-chromium: ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

const found = await findChromium();
if (found) {
  console.log(`ensure-chromium: using ${found}`);
  process.exit(0);
}
if (process.env.CHROMIUM_PATH) {
  console.error(
    `ensure-chromium: CHROMIUM_PATH is set to ${process.env.CHROMIUM_PATH}, which does not exist.`,
  );
  process.exit(1);
}
// Playwright's download first; it fails fast where only package registries are reachable.
if (run('npx', ['--no-install', 'playwright', 'install', 'chromium']) && (await findChromium())) {
  process.exit(0);
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const apt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
if (apt) {
  const sudo = isRoot ? [] : ['sudo'];
  const [command, ...prefix] = [...sudo, 'apt-get'];
  if (
    run(command, [...prefix, 'update']) &&
    run(command, [...prefix, 'install', '-y', 'chromium', 'chromium-headless-shell']) &&
    (await findChromium())
  ) {
    process.exit(0);
  }
}
console.error(
  'ensure-chromium: no Chromium found and none could be installed. Install Chromium, or set CHROMIUM_PATH to one.',
);
process.exit(1);
