// scripts/check-links.mjs (part of `pnpm lint`) run on small repositories of its own: a copy of
// the script in `<repository>/scripts/`, which it takes as the repository's root. It fails on a
// relative link to a missing file, when the root README's tour leaves out a directory of
// packages/, operators/ or tools/, and when the README reaches 8,000 characters; it passes
// when every link resolves, the tour is whole and the README short.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../scripts/check-links.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'ops-check-links-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const workspace = {
  'packages/core/package.json': '{}',
  'packages/core/README.md': '# core\n',
  'operators/app-operator/package.json': '{}',
  'tools/bench/package.json': '{}',
  'tools/bench/README.md': '# bench\n',
};

const tour = `## The tour

| package | what it is |
| --- | --- |
| [\`@x/core\`](packages/core) | the runtime |
| [app-operator](./operators/app-operator/) | an operator |
| [bench](tools/bench/README.md) | benchmarks |
`;

let repositories = 0;

/** Writes `files` into a new git repository with the script in its `scripts/`, and runs it. */
function checkLinks(files: Record<string, string>): { status: number | null; output: string } {
  repositories += 1;
  const root = join(work, `repository-${repositories}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, 'scripts'), { recursive: true });
  copyFileSync(script, join(root, 'scripts/check-links.mjs'));
  execFileSync('git', ['init', '--quiet'], { cwd: root });
  const run = spawnSync(process.execPath, ['scripts/check-links.mjs'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('scripts/check-links.mjs', () => {
  it('passes when every relative link resolves and the tour links every workspace directory', () => {
    const result = checkLinks({
      ...workspace,
      'README.md': `# x\n\n${tour}\n## Read next\n\n- [core](packages/core/README.md#core)\n`,
    });
    expect(result.output).toContain('every relative link resolves');
    expect(result.status).toBe(0);
  });

  it('fails on a relative link to a file that is not in the repository, naming file and line', () => {
    const result = checkLinks({
      ...workspace,
      'README.md': `# x\n\n${tour}`,
      'docs/GUIDE.md': '# Guide\n\nSee [the design](DESIGN.md).\n',
    });
    expect(result.output).toContain('docs/GUIDE.md:3: broken link DESIGN.md');
    expect(result.status).toBe(1);
  });

  it.each([
    ['packages/api', 'a package'],
    ['operators/job-operator', 'an operator'],
    ['tools/fidelity', 'a tool'],
  ])('fails when the tour leaves out %s (%s), saying how to add it', (directory) => {
    const result = checkLinks({
      ...workspace,
      [`${directory}/package.json`]: '{}',
      'README.md': `# x\n\n${tour}`,
    });
    expect(result.output).toContain(
      `README.md:3: the tour does not link ${directory}; add it to a tour table as [name](${directory})`,
    );
    expect(result.output).toContain('1 problem(s)');
    expect(result.status).toBe(1);
  });

  it('does not count a link outside the tour section', () => {
    const result = checkLinks({
      ...workspace,
      'tools/fidelity/package.json': '{}',
      'README.md': `# x\n\n${tour}\n## Read next\n\n- [fidelity](tools/fidelity)\n`,
    });
    expect(result.output).toContain('the tour does not link tools/fidelity');
    expect(result.status).toBe(1);
  });

  it('ignores a directory without package.json (no workspace package, e.g. leftover node_modules)', () => {
    const result = checkLinks({
      ...workspace,
      'tools/old/node_modules/.keep': '',
      'README.md': `# x\n\n${tour}`,
    });
    expect(result.status).toBe(0);
  });

  it('fails when the README reaches 8,000 characters, counting characters, not bytes', () => {
    const head = `# x\n\n${tour}\n`;
    const under = checkLinks({ ...workspace, 'README.md': head.padEnd(7999, '→') });
    expect(under.output).toContain('in 7999 characters');
    expect(under.status).toBe(0);
    const at = checkLinks({ ...workspace, 'README.md': head.padEnd(8000, '→') });
    expect(at.output).toContain('README.md: 8000 characters, the front door stays under 8000');
    expect(at.status).toBe(1);
  });

  it('fails when the README has no tour section', () => {
    const result = checkLinks({
      ...workspace,
      'README.md': '# x\n\n- [core](packages/core)\n',
    });
    expect(result.output).toContain('README.md: no "## The tour" section');
    expect(result.status).toBe(1);
  });
});
