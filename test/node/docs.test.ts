// The documentation a merchant reads on GitHub or in the package: every link between its pages
// lands on a file of this repository (never outside it, as the README once pointed at a folder
// beside the repository) and on a heading that exists; and the README's two commands are the
// ones CI runs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The page without its fenced code blocks, where a bracket is code, not a link. */
function prose(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8').replace(/^\s*```[\s\S]*?^\s*```/gm, '');
}

/** Each heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of prose(page).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const slug = (text ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    found.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return found;
}

/** Every link and image target of a page that is not a web address. */
function localLinks(page: string): string[] {
  return [...prose(page).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^(https?:|mailto:)/.test(target));
}

describe('the documentation', () => {
  it.each(PAGES)('%s links only to files of this repository and headings they have', (page) => {
    const broken: string[] = [];
    for (const target of localLinks(page)) {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (relative(ROOT, file).startsWith('..')) {
        broken.push(`${target}: outside the repository`);
      } else if (!existsSync(file)) {
        broken.push(`${target}: no such file`);
      } else if (anchor !== undefined) {
        const headings =
          statSync(file).isFile() && file.endsWith('.md') ? anchors(relative(ROOT, file)) : null;
        if (!headings?.has(anchor)) broken.push(`${target}: no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names no file outside the repository, even in code', () => {
    const outside = PAGES.filter((page) =>
      /\.\.\/shared|\/work\/|provider-api\.md|DESIGN\.md|CONVENTIONS\.md/.test(
        readFileSync(join(ROOT, page), 'utf8'),
      ),
    );
    expect(outside).toEqual([]);
  });

  it("keeps the README's two commands, and CI runs its test command", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const commands = [...readme.matchAll(/^```sh\n([^\n]+)\n```$/gm)].map((match) => match[1]);
    expect(commands).toContain('npm ci && npm start');
    expect(commands).toContain('npm ci && npm test');
    // On Node 24 (fetched when the machine's is older), then a pass on Node 22 follows it.
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ci).toContain('npm ci && npm test');
  });

  it('shows the checkout in the README from a screenshot in the repository', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/screenshots\/choose-1280-light\.png\)/);
    const png = readFileSync(join(ROOT, 'docs/screenshots/choose-1280-light.png'));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});
