// The run's one Chromium has one clipboard for every file's tabs: a file that copies and reads
// back on it reads another file's copy now and then (widget-access read customer-looks' account
// number, steady check, session 10). The shared browser refuses clipboard permissions outright,
// naming the way out; a file's own Chromium grants them.
import { expect, it } from 'vitest';
import { useChromium } from '../helpers/page';

const shared = useChromium();
const own = useChromium({ ownClipboard: true });
const CLIPBOARD = ['clipboard-read', 'clipboard-write'];

it('refuses a context with clipboard permissions, naming ownClipboard', async () => {
  await expect(shared().newContext({ permissions: CLIPBOARD })).rejects.toThrow(
    /clipboard-read and clipboard-write asked of the run's shared Chromium.*ownClipboard: true/,
  );
  await expect(shared().newPage({ permissions: ['clipboard-write'] })).rejects.toThrow(
    /clipboard-write asked/,
  );
});

it('refuses clipboard permissions granted to a context later, and keeps granting others', async () => {
  const context = await shared().newContext();
  try {
    await expect(context.grantPermissions(['clipboard-read'])).rejects.toThrow(/ownClipboard/);
    await context.grantPermissions(['geolocation']);
    const page = await context.newPage();
    await page.goto('about:blank');
    const state = (name: string) =>
      page.evaluate(
        async (asked) =>
          (await navigator.permissions.query({ name: asked as PermissionName })).state,
        name,
      );
    expect(await state('geolocation')).toBe('granted');
    // The refused grant was never made.
    expect(await state('clipboard-read')).not.toBe('granted');
  } finally {
    await context.close();
  }
});

it("grants the clipboard in a file's own Chromium", async () => {
  const context = await own().newContext({ permissions: CLIPBOARD });
  try {
    const page = await context.newPage();
    // The clipboard is for secure pages: localhost is one (answered here, not served).
    await page.route('http://localhost/', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>paydrop</p>' }),
    );
    await page.goto('http://localhost/');
    await page.evaluate(() => navigator.clipboard.writeText('0123456789'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('0123456789');
  } finally {
    await context.close();
  }
});
