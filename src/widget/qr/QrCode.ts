import type {
  ComponentType,
  Component as PreactComponent,
  Fragment as PreactFragment,
  h as preactH,
} from 'preact';
import { drawQr } from './qr-path';

export interface QrCodeProps {
  /** What the code holds, e.g. the bank's authorisation URL. */
  readonly text: string;
  /** What a screen reader says instead of the picture. */
  readonly label: string;
}

/** The host's Preact: a chunk must not bring its own, or two renderers would fight. */
export interface HostPreact {
  readonly h: typeof preactH;
  readonly Component: typeof PreactComponent;
  readonly Fragment: typeof PreactFragment;
}

/**
 * The QR code as an SVG drawn with attributes only (no style attribute: strict CSPs allow it).
 * A factory taking the host's Preact, because this module is a lazily loaded chunk.
 */
export function createQrCode(preact: HostPreact): ComponentType<QrCodeProps> {
  const { h } = preact;
  return function QrCode({ text, label }: QrCodeProps) {
    const { size, path } = drawQr(text);
    // h() calls, not JSX: the local h is the host's, and TypeScript finds JSX types only on an import.
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
  };
}
