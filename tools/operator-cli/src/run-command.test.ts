import { describe, expect, it } from 'vitest';
import { OperatorCliError } from './errors/operator-cli-error.js';
import { runCommand } from './run-command.js';

const node = process.execPath;

describe('runCommand', () => {
  it('returns stdout when capturing, and feeds input to stdin', async () => {
    expect(
      await runCommand(
        node,
        ['-e', 'process.stdin.on("data", (d) => process.stdout.write(String(d).toUpperCase()))'],
        { capture: true, input: 'abc' },
      ),
    ).toBe('ABC');
  });

  it('says which tool is missing and how to get it', async () => {
    const error = await runCommand('no-such-tool-here', ['x'], {
      what: 'kubectl',
      install: 'Install kubectl.',
    }).catch((caught: unknown) => caught);
    expect(OperatorCliError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'kubectl not found: "no-such-tool-here" is not on PATH. Install kubectl.',
    );
  });

  it('fails with the command line, the exit status and its stderr', async () => {
    await expect(
      runCommand(node, ['-e', 'console.error("the cluster is unreachable"); process.exit(3)'], {
        capture: true,
      }),
    ).rejects.toThrow(/failed \(exit 3\):\nthe cluster is unreachable$/);
  });
});
