// scripts/env.sh and scripts/bootstrap.sh sourced as a person does, in an interactive bash:
// the shell's options (`$-`, `set +o`) are the same afterwards, a failing command later does
// not close the shell, and a failure of the script itself returns 1 with a message instead
// of exiting the shell.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const scripts = fileURLToPath(new URL('../../../scripts/', import.meta.url));
const minutes = 60_000;
const bash = '/bin/bash';

/**
 * Runs `body` in `bash --norc -i` (an interactive shell, options as a terminal's) after
 * `preamble`, recording `$-` and `set +o` before and after sourcing `script`, and whether
 * the shell is still there after a failing command and a failing pipeline.
 */
function sourceIn(
  script: string,
  options: { preamble?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const body = `${options.preamble ?? ''}
before_flags="$-"; before_options="$(set +o)"
source ${JSON.stringify(join(scripts, script))}; status=$?
echo "status=$status"
[ "$before_flags" = "$-" ] && echo "flags: same" || echo "flags: $before_flags -> $-"
[ "$before_options" = "$(set +o)" ] && echo "options: same" || diff <(echo "$before_options") <(set +o)
echo "node: $(node --version 2>/dev/null)"
false
echo "alive after a failing command"
false | cat
echo "alive after a failing pipeline"
`;
  return new Promise((resolve) => {
    execFile(
      bash,
      ['--norc', '--noprofile', '-i', '-c', body],
      { env: options.env ?? process.env, cwd: tmpdir(), timeout: 4 * minutes },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

const pinned = `v${readFileSync(join(scripts, '../.node-version'), 'utf8').trim()}`;

// A PATH with the shell's tools but no Node.js, for the failure path.
const noNode = mkdtempSync(join(tmpdir(), 'ops-shell-'));
for (const tool of ['dirname', 'tr', 'cat', 'diff']) {
  symlinkSync(`/usr/bin/${tool}`, join(noNode, tool));
}
afterAll(() => rmSync(noNode, { recursive: true, force: true }));

describe.each(['env.sh', 'bootstrap.sh'])('source scripts/%s in an interactive shell', (script) => {
  it(
    'puts the pinned Node.js on PATH and leaves the shell options as they were',
    async () => {
      const run = await sourceIn(script);
      expect(run.stdout).toContain('status=0\nflags: same\noptions: same\n');
      expect(run.stdout).toContain(`node: ${pinned}\n`);
      expect(run.stdout).toContain(
        'alive after a failing command\nalive after a failing pipeline\n',
      );
      expect(run.code).toBe(0);
    },
    5 * minutes,
  );

  it('keeps a caller’s own set -euo pipefail as it was', async () => {
    // Without Node.js it fails early: the options must be the caller's all the same.
    const run = await sourceIn(script, {
      preamble: 'set -o nounset -o pipefail',
      env: { ...process.env, PATH: noNode },
    });
    expect(run.stdout).toContain('status=1\nflags: same\noptions: same\n');
  });

  it('says what is missing and returns 1, without closing the shell, when it cannot work', async () => {
    const run = await sourceIn(script, { env: { ...process.env, PATH: noNode } });
    expect(run.stderr).toContain(
      'Node.js and npm are required (any version; the scripts install Node.js',
    );
    expect(run.stdout).toContain('status=1\nflags: same\noptions: same\n');
    expect(run.stdout).toContain('alive after a failing command\nalive after a failing pipeline\n');
  });
});

describe('scripts run with set -e', () => {
  it('stop where sourcing fails, as test.sh and demo.sh rely on', async () => {
    const run = await sourceIn('env.sh', {
      preamble: 'set -euo pipefail',
      env: { ...process.env, PATH: noNode },
    });
    expect(run.stdout).not.toContain('status=');
    expect(run.code).toBe(1);
  });
});
