import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@ops/envtest';
import { describe, expect, it } from 'vitest';

const demo = fileURLToPath(new URL('../demo.mjs', import.meta.url));

// The README's first command runs this script (after building); here it runs until the
// sample is ready and then stops, as Ctrl-C would.
describe('the demo', () => {
  it('starts the server and the operator, and the sample Application becomes ready', {
    timeout: 60_000,
  }, async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    const child = spawn(
      process.execPath,
      [
        demo,
        '--port',
        '0',
        '--webhook-port',
        String(ports[0]),
        '--metrics-port',
        String(ports[1]),
        '--health-port',
        String(ports[2]),
        '--exit-when-ready',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output).toMatch(/Deployment app-demo added/);
    expect(output).toMatch(
      /Application demo modified: ready=true \(DeploymentAvailable\), finalizers lixueduan\.com\/application/,
    );
    expect(output).toContain('export KUBECONFIG=');
    expect(output).toContain('demo: stopped');
    expect(code).toBe(0);
  });
});
