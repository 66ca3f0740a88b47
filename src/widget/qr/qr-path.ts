/**
 * The QR code of a text as one SVG path: a square per dark module, inside the four-module quiet
 * zone scanners need. qrcode makes the matrix (`create(text).modules`); this module only draws
 * it, as a path's `d` attribute: no markup string, so Trusted Types have nothing to refuse.
 */
import { create } from 'qrcode/lib/core/qrcode.js';

export const QUIET_ZONE = 4;

export interface QrDrawing {
  /** Modules across, quiet zone included: the viewBox is 0 0 size size. */
  readonly size: number;
  /** One path: `M x y h1 v1 h-1 z` for each dark module. */
  readonly path: string;
}

/**
 * @example drawQr('https://bank.example/authorise/PAY_1').size // e.g. 37
 */
export function drawQr(text: string): QrDrawing {
  const { modules } = create(text);
  const parts: string[] = [];
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      // BitMatrix.get takes the row first.
      if (modules.get(y, x)) parts.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: modules.size + QUIET_ZONE * 2, path: parts.join('') };
}
