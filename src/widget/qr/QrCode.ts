import { h } from 'preact';
import { drawQr } from './qr-path';

export interface QrCodeProps {
  /** What the code holds, e.g. the bank's authorisation URL. */
  readonly text: string;
  /** What a screen reader says instead of the picture. */
  readonly label: string;
}

/**
 * The QR code as an SVG drawn with attributes only (no style attribute: strict CSPs allow it).
 * In the script tag it travels in the QR chunk, rendered by the page's own Preact
 * (src/widget/chunk-host.ts).
 */
export function QrCode({ text, label }: QrCodeProps) {
  const { size, path } = drawQr(text);
  return h(
    'svg',
    {
      class: 'qr',
      role: 'img',
      'aria-label': label,
      viewBox: `0 0 ${size} ${size}`,
      // Sized by attributes, so the host needs no stylesheet rule for it.
      width: 200,
      height: 200,
      'shape-rendering': 'crispEdges',
      xmlns: 'http://www.w3.org/2000/svg',
    },
    h('rect', { width: size, height: size, fill: '#fff' }),
    h('path', { d: path, fill: '#000' }),
  );
}
