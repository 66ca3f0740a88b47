/**
 * The card brand's logo inside the number field (issue 23), drawn to our own simple design (the
 * brands' colours, their names as text), built with DOM calls: no markup from a string, so the
 * frame's Trusted Types policy needs nothing. Decoration: the brand's name is said in words
 * beside it (the field's description and the live region).
 */
import type { CardBrand } from '../protocol/card-input';

const SVG = 'http://www.w3.org/2000/svg';

function draw(tag: string, attributes: Record<string, string>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node as SVGElement;
}

/** A word centred on the 40 × 26 badge. */
function word(text: string, fill: string, size = '11'): SVGElement {
  return draw(
    'text',
    {
      x: '20',
      y: '17',
      'text-anchor': 'middle',
      'font-size': size,
      'font-weight': '800',
      'font-family': 'Arial, Helvetica, sans-serif',
      fill,
    },
    text,
  );
}

const MARKS: Readonly<Record<CardBrand, () => SVGElement[]>> = {
  visa: () => [word('VISA', '#1a1f71', '12')],
  mastercard: () => [
    draw('circle', { cx: '15.5', cy: '13', r: '7.5', fill: '#eb001b' }),
    draw('circle', { cx: '24.5', cy: '13', r: '7.5', fill: '#f79e1b', 'fill-opacity': '0.85' }),
  ],
  amex: () => [
    draw('rect', { width: '40', height: '26', rx: '4', fill: '#1f72cd' }),
    word('AMEX', '#fff'),
  ],
  verve: () => [
    draw('circle', { cx: '8', cy: '13', r: '4', fill: '#ee312a' }),
    word('verve', '#00425f', '10'),
  ],
  discover: () => [
    word('DISC', '#231f20'),
    draw('circle', { cx: '33', cy: '13', r: '3.5', fill: '#f48024' }),
  ],
};

/** The badge for `brand`, or nothing when no brand is known yet. */
export function brandLogo(brand: CardBrand | null): SVGElement[] {
  if (!brand) return [];
  const badge = draw('svg', {
    viewBox: '0 0 40 26',
    width: '40',
    height: '26',
    'aria-hidden': 'true',
  });
  badge.append(
    draw('rect', {
      x: '.5',
      y: '.5',
      width: '39',
      height: '25',
      rx: '4',
      fill: '#fff',
      stroke: '#c9ced8',
    }),
    ...MARKS[brand](),
  );
  return [badge];
}
