/**
 * A channel is a slice (issue 24.1): outside src/protocol and the channel folders (any folder
 * named `channels`, where each layer keeps its channels and their registry), no source file names
 * a channel. The few files allowed to are listed here, at most four, each with why; a channel's
 * name anywhere else (say in src/flow/checkout-model.ts) fails this test, naming the file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src/protocol';

const ROOT = resolve(import.meta.dirname, '../../..');
const SRC = join(ROOT, 'src');

/** Files outside the channel folders that may name a channel, and why. At most four. */
const ALLOWED: Readonly<Record<string, string>> = {};

/**
 * How a channel is named in code: a compound name (PayByTransfer) anywhere, a plain word (Card)
 * only as a string, so that "card" in prose or a CardPanel import does not count.
 */
function channelPattern(names: readonly string[]): RegExp {
  const parts = names.map((name) =>
    /[a-z][A-Z]/.test(name) ? `\\b${name}\\b` : `['"\`]${name}['"\`]`,
  );
  return new RegExp(parts.join('|'));
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return [path];
  });
}

/** The files of src/ outside src/protocol and every channels/ folder that name a channel. */
function filesNamingAChannel(): string[] {
  const pattern = channelPattern(CHANNELS);
  return sources(SRC)
    .map((path) => relative(ROOT, path).split(sep).join('/'))
    .filter((path) => !path.startsWith('src/protocol/') && !path.split('/').includes('channels'))
    .filter((path) => pattern.test(readFileSync(join(ROOT, path), 'utf8')))
    .sort();
}

describe('channel names outside the channel folders', () => {
  it('allow at most four files', () => {
    expect(Object.keys(ALLOWED).length).toBeLessThanOrEqual(4);
  });

  it('appear in no file but the allowed ones', () => {
    const outside = filesNamingAChannel().filter((path) => !(path in ALLOWED));
    expect(outside, 'move what these files know of a channel into its channels/ folder').toEqual(
      [],
    );
  });

  it('are found where they are written, in code and in strings', () => {
    const pattern = channelPattern(CHANNELS);
    expect(pattern.test("if (payment.channel === 'Card') return;")).toBe(true);
    expect(pattern.test('lastChannel = "PayByTransfer";')).toBe(true);
    expect(pattern.test('/** PayByAccount: the bank page. */')).toBe(true);
    expect(pattern.test('import { CardPanel } from "./card"; // a card form')).toBe(false);
  });
});
