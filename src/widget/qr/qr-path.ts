/**
 * The QR code of a text as one SVG path: a square per dark module, inside the four-module quiet
 * zone scanners need. lean-qr's nano build makes the matrix (about 2.5 KB gzipped, no
 * dependencies); this module only draws it.
 */
import { generate } from 'lean-qr/nano';

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
  const code = generate(text);
  const parts: string[] = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (code.get(x, y)) parts.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: code.size + QUIET_ZONE * 2, path: parts.join('') };
}
