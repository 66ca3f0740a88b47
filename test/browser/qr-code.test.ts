// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/preact';
import jsQR from 'jsqr';
import * as preact from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { drawQr, QrCode } from '../../src/widget/qr';

afterEach(cleanup);

/** The dark modules of a drawing, as "x,y" (quiet zone included). */
function darkModules(path: string): Set<string> {
  return new Set(
    [...path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((match) => `${match[1]},${match[2]}`),
  );
}

describe('drawQr', () => {
  const url = 'http://127.0.0.1:4010/pages/bank/PAY_3W0F5J1I2Y000Y4E';

  it('draws the three finder patterns a scanner locks on to, inside a four-module quiet zone', () => {
    const { size, path } = drawQr(url);
    const dark = darkModules(path);
    const code = size - 8;
    for (const [left, top] of [
      [4, 4],
      [4 + code - 7, 4],
      [4, 4 + code - 7],
    ] as const) {
      // A finder pattern: dark outer ring, light ring, dark 3x3 centre.
      expect(dark.has(`${left},${top}`)).toBe(true);
      expect(dark.has(`${left + 6},${top + 6}`)).toBe(true);
      expect(dark.has(`${left + 1},${top + 1}`)).toBe(false);
      expect(dark.has(`${left + 3},${top + 3}`)).toBe(true);
    }
    // Nothing is drawn in the quiet zone.
    for (const module of dark) {
      const [x, y] = module.split(',').map(Number) as [number, number];
      expect(x).toBeGreaterThanOrEqual(4);
      expect(y).toBeGreaterThanOrEqual(4);
      expect(x).toBeLessThan(size - 4);
      expect(y).toBeLessThan(size - 4);
    }
  });

  it('grows with the text and stays small enough to scan from a screen for a bank URL', () => {
    const short = drawQr('https://b.example/a');
    const long = drawQr(`${url}?return=${'x'.repeat(200)}`);
    expect(long.size).toBeGreaterThan(short.size);
    expect(drawQr(url).size).toBeLessThanOrEqual(41 + 8);
  });

  it('scans back to the exact text, as a phone camera would read it', () => {
    const { size, path } = drawQr(url);
    const dark = darkModules(path);
    const scale = 4;
    const pixels = new Uint8ClampedArray(size * scale * size * scale * 4);
    for (let y = 0; y < size * scale; y++) {
      for (let x = 0; x < size * scale; x++) {
        const on = dark.has(`${Math.floor(x / scale)},${Math.floor(y / scale)}`);
        const at = (y * size * scale + x) * 4;
        pixels.fill(on ? 0 : 255, at, at + 3);
        pixels[at + 3] = 255;
      }
    }
    expect(jsQR(pixels, size * scale, size * scale)?.data).toBe(url);
  });

  it('draws the same text the same way every time', () => {
    expect(drawQr(url)).toEqual(drawQr(url));
    expect(drawQr(url).path).not.toBe(drawQr(`${url}1`).path);
  });
});

describe('QrCode component', () => {
  it('is an image with a text alternative, drawn without style attributes', () => {
    const { container } = render(
      preact.h(QrCode, {
        text: 'https://bank.example/a',
        label: 'Scan to pay at your bank on your phone',
      }),
    );
    const image = screen.getByRole('img', { name: 'Scan to pay at your bank on your phone' });
    expect(image.tagName.toLowerCase()).toBe('svg');
    expect(image.getAttribute('viewBox')).toMatch(/^0 0 \d+ \d+$/);
    expect(container.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });
});
