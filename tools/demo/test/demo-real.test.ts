import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runDemo } from './run-demo.js';

const run = promisify(execFile);
const kubectl = process.env.KUBECTL ?? 'kubectl';

// `./scripts/demo.sh --real`: the same demo on envtest's cluster plane (real kube-apiserver,
// kube-controller-manager, kube-scheduler and a kwok node), which `pnpm test:binaries` has
// built or found in the user's cache (~/.cache/ops/kube). The demo stays up until Ctrl-C, as a user runs it.
describe('the demo with --real', () => {
  it("runs the operator on a real cluster: the sample's Pod runs on the kwok node and the webhook denies a bad Application", {
    timeout: 180_000,
  }, async () => {
    const demo = await runDemo(['--real']);
    try {
      await demo.waitFor('Press Ctrl-C to stop.', 150_000);
      const output = demo.output();
      expect(output).toMatch(
        /demo: Kubernetes v1\.37\.2 at https:\/\/127\.0\.0\.1:\d+: kube-apiserver, kube-controller-manager, kube-scheduler and a kwok node/,
      );
      expect(output).toMatch(
        /Application demo modified: ready=true \(DeploymentAvailable\), finalizers lixueduan\.com\/application/,
      );
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(output)?.[1] ?? '';
      expect(kubeconfig).not.toBe('');
      const kubectlArgs = (args: string[]) => run(kubectl, ['--kubeconfig', kubeconfig, ...args]);
      const { stdout: pods } = await kubectlArgs(['get', 'pods', '-o', 'wide']);
      expect(pods).toMatch(/^app-demo-\S+\s+1\/1\s+Running\s+0\s+\S+\s+\S+\s+kwok-node-0\s/m);
      // kube-apiserver calls the operator's validating webhook by URL on the loopback address.
      const bad = join(await mkdtemp(join(tmpdir(), 'demo-real-')), 'bad.json');
      await writeFile(
        bad,
        JSON.stringify({
          apiVersion: 'core.crd.lixueduan.com/v1',
          kind: 'Application',
          metadata: { name: 'bad', namespace: 'default' },
          spec: { image: '' },
        }),
      );
      const denied = await kubectlArgs(['create', '-f', bad]).then(
        ({ stdout }) => `created: ${stdout}`,
        (error: { stderr: string }) => error.stderr,
      );
      await rm(dirname(bad), { recursive: true, force: true });
      expect(denied).toContain('admission webhook');
      expect(denied).toContain('denied the request');
    } finally {
      demo.child.kill('SIGINT');
    }
    expect(await demo.exited).toBe(0);
    expect(demo.output()).toContain('demo: stopped');
  });

  it("runs the myjob-operator on a real cluster: the kwok node finishes the sample MyJob's Pod", {
    timeout: 180_000,
  }, async () => {
    const demo = await runDemo(['myjob', '--real']);
    try {
      await demo.waitFor('MyJob myjob-sample modified: phase=completed (PodSucceeded)', 150_000);
      expect(demo.output()).toContain('Press Ctrl-C to stop.');
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(demo.output())?.[1] ?? '';
      const kubectlArgs = (args: string[]) => run(kubectl, ['--kubeconfig', kubeconfig, ...args]);
      const { stdout: pods } = await kubectlArgs(['get', 'pods']);
      expect(pods).toMatch(/^myjob-sample\s+0\/1\s+Completed\s/m);
      const { stdout: myJobs } = await kubectlArgs(['get', 'myjobs']);
      expect(myJobs).toMatch(/^myjob-sample\s+completed\s+Succeeded\s/m);
    } finally {
      demo.child.kill('SIGINT');
    }
    expect(await demo.exited).toBe(0);
    expect(demo.output()).toContain('demo: stopped');
  });

  it("runs the sidecar-operator on a real cluster: the Deployment's Pods come out injected", {
    timeout: 180_000,
  }, async () => {
    const demo = await runDemo(['sidecar', '--real']);
    try {
      await demo.waitFor('Press Ctrl-C to stop.', 150_000);
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(demo.output())?.[1] ?? '';
      const kubectlArgs = (args: string[]) => run(kubectl, ['--kubeconfig', kubeconfig, ...args]);
      const { stdout: table } = await kubectlArgs(['get', 'sidecarsets']);
      expect(table).toMatch(/^logging\s+2\s+2\s+2\s+\S+$/m);
      // kube-apiserver called the Pod webhook by URL; the kwok node runs both containers.
      const { stdout: containers } = await kubectlArgs([
        'get',
        'pods',
        '-l',
        'app=web',
        '-o',
        'jsonpath={range .items[*]}{.spec.containers[*].name} {.status.phase}{"\\n"}{end}',
      ]);
      expect(containers.trim().split('\n')).toEqual([
        'web log-agent Running',
        'web log-agent Running',
      ]);
    } finally {
      demo.child.kill('SIGINT');
    }
    expect(await demo.exited).toBe(0);
    expect(demo.output()).toContain('demo: stopped');
  });
});
