import { describe, expect, it } from 'vitest';
import { CARD_FRAME_TAG, checkTheme, isCardFrameMessage } from '../../src/protocol/card-frame';

describe('checkTheme', () => {
  it('keeps hex and rgb() colours, a px radius and a list of font families', () => {
    expect(
      checkTheme({
        brand: '#0a7d5a',
        text: 'rgb(24, 32, 44)',
        background: 'rgba(255 255 255 / 0.9)',
        radius: '8px',
        font: '"Inter", system-ui, sans-serif',
      }),
    ).toEqual({
      brand: '#0a7d5a',
      text: 'rgb(24, 32, 44)',
      background: 'rgba(255 255 255 / 0.9)',
      radius: '8px',
      font: '"Inter", system-ui, sans-serif',
    });
  });

  it.each([
    ['brand', 'red'],
    ['brand', '#0a7d5a; background: url(https://evil.example/)'],
    ['brand', 'url(https://evil.example/x.png)'],
    ['brand', 'var(--x)'],
    ['text', 'rgb(1,2,3)) ; color: red'],
    ['background', 'expression(alert(1))'],
    ['radius', '1em'],
    ['radius', '8px; display:none'],
    ['radius', '100px'],
    ['font', 'x;}body{display:none'],
    ['font', 'url(https://evil.example/font.woff)'],
    ['font', '"a" ; color: red'],
  ])('drops %s %j', (key, value) => {
    expect(checkTheme({ [key]: value })).toEqual({});
  });

  it('ignores what is not an object, unknown keys and non-strings', () => {
    expect(checkTheme(null)).toEqual({});
    expect(checkTheme('brand=#fff')).toEqual({});
    expect(checkTheme({ brand: 42, colour: '#fff', __proto__: { brand: '#fff' } })).toEqual({});
  });
});

describe('isCardFrameMessage', () => {
  const frame = {};
  const secret = 'a1'.repeat(18);
  const message = (data: unknown, origin = 'null', source: unknown = frame) =>
    ({ data, origin, source }) as never;
  const expected = { origin: 'null', source: frame, secret };
  const good = { tag: CARD_FRAME_TAG, secret, type: 'state' };

  it('takes the frame’s message: its window, its origin, its secret', () => {
    expect(isCardFrameMessage(message(good), expected)).toBe(true);
  });

  it.each([
    ['another window', message(good, 'null', {})],
    ['no window', message(good, 'null', null)],
    ['another origin', message(good, 'https://evil.example')],
    ['another secret', message({ ...good, secret: 'b2'.repeat(18) })],
    ['no secret', message({ tag: CARD_FRAME_TAG, type: 'state' })],
    ['another tag', message({ ...good, tag: 'paydrop:challenge' })],
    ['no type', message({ tag: CARD_FRAME_TAG, secret })],
    ['a string', message('paydrop:card-frame')],
    ['null', message(null)],
  ])('refuses %s', (_, event) => {
    expect(isCardFrameMessage(event, expected)).toBe(false);
  });

  it('refuses everything when the expected secret is too short to mean anything', () => {
    expect(isCardFrameMessage(message({ ...good, secret: '' }), { ...expected, secret: '' })).toBe(
      false,
    );
  });
});
