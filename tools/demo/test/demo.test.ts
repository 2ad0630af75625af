import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:https';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from './run-demo.js';

// The README's first command runs this script (after building); here it runs until the
// sample is ready and then stops, as Ctrl-C would.
describe('the demo', () => {
  it('starts the server and the operator, and the sample Application becomes ready', {
    timeout: 60_000,
  }, async () => {
    const demo = await runDemo(['--exit-when-ready']);
    const code = await demo.exited;
    const output = demo.output();
    expect(output).toMatch(/demo: local Kubernetes API server at https:\/\/127\.0\.0\.1:\d+/);
    expect(output).toMatch(/Deployment app-demo added/);
    expect(output).toMatch(
      /Application demo modified: ready=true \(DeploymentAvailable\), finalizers lixueduan\.com\/application/,
    );
    expect(output).toContain('export KUBECONFIG=');
    expect(output).toContain('demo: stopped');
    expect(code).toBe(0);
  });

  it('runs twice at once, each demo with its own kubeconfig and certificates, removed at its exit', {
    timeout: 60_000,
  }, async () => {
    const demos = await Promise.all([
      runDemo(['--exit-when-ready']),
      runDemo(['sidecar', '--exit-when-ready']),
    ]);
    const codes = await Promise.all(demos.map((demo) => demo.exited));
    const kubeconfigs = demos.map(
      (demo) => /export KUBECONFIG=(\S+)/.exec(demo.output())?.[1] ?? demo.output(),
    );
    expect(codes).toEqual([0, 0]);
    expect(new Set(kubeconfigs).size).toBe(2);
    for (const kubeconfig of kubeconfigs) expect(existsSync(dirname(kubeconfig))).toBe(false);
  });

  it('picks the myjob-operator by its short name: the sample MyJob runs its Pod to completed', {
    timeout: 60_000,
  }, async () => {
    const demo = await runDemo(['myjob', '--exit-when-ready']);
    const code = await demo.exited;
    const output = demo.output();
    expect(output).toMatch(
      /demo: myjob-operator started \(pid \d+\); metrics on :\d+, probes on :\d+, webhooks on :\d+/,
    );
    expect(output).toContain('demo: applying the sample MyJob myjob-sample (config/samples)');
    expect(output).toMatch(/MyJob myjob-sample modified: phase=pending \(PodPending\)/);
    expect(output).toMatch(/Pod myjob-sample modified: Running/);
    expect(output).toMatch(/Pod myjob-sample modified: Succeeded \(pi exited 0\)/);
    expect(output).toMatch(/MyJob myjob-sample modified: phase=completed \(PodSucceeded\)/);
    expect(output).toContain('export KUBECONFIG=');
    expect(output).toContain('Press Ctrl-C to stop.');
    expect(output).toContain('demo: stopped');
    expect(code).toBe(0);
  });

  it('picks the balancer-operator by its short name: the sample Balancer is ready, and nginx measures its split', {
    timeout: 90_000,
  }, async () => {
    const demo = await runDemo(['balancer', '--exit-when-ready']);
    const code = await demo.exited;
    const output = demo.output();
    expect(output).toMatch(
      /demo: balancer-operator started \(pid \d+\); metrics on :\d+, probes on :\d+, no webhooks/,
    );
    expect(output).toContain(
      'demo: applying the sample Balancer balancer-sample (config/samples; weights v1=40 v2=20 v3=40) and its echo Pods echo-v1..3',
    );
    expect(output).toMatch(
      /Service balancer-sample-v2-backend: selector app=test,version=v2 \(added\)/,
    );
    expect(output).toMatch(/Deployment balancer-sampleproxy: 1\/1 available, image nginx:1\.15\.9/);
    expect(output).toMatch(
      /Balancer balancer-sample: active=3 obsolete=0 ready=True \(Available\)/,
    );
    // The split through this machine's nginx (the project's test command installs it).
    expect(output).toMatch(
      /demo: measuring the split through nginx [\d.]+ on balancer-sampleproxy-config's nginx\.conf: 10000 TCP requests to port http/,
    );
    const shares = [...output.matchAll(/demo: +(v\d): ([\d.]+)% \(weight (\d+) of 100/g)];
    expect(shares.map(([, backend]) => backend)).toEqual(['v1', 'v2', 'v3']);
    for (const [, backend, share, weight] of shares) {
      expect(Math.abs(Number(share) - Number(weight)), backend).toBeLessThanOrEqual(2);
    }
    expect(output).toContain('export KUBECONFIG=');
    expect(output).toContain('Press Ctrl-C to stop.');
    expect(output).toContain('demo: stopped');
    expect(code).toBe(0);
  });

  it("picks the sidecar-operator by its short name: a Deployment's Pods come out injected", {
    timeout: 60_000,
  }, async () => {
    const demo = await runDemo(['sidecar', '--exit-when-ready']);
    const code = await demo.exited;
    const output = demo.output();
    expect(output).toMatch(
      /demo: sidecar-operator started \(pid \d+\); metrics on :\d+, probes on :\d+, webhooks on :\d+/,
    );
    expect(output).toContain('demo: applying the sample SidecarSet logging (config/samples)');
    expect(output).toContain('demo: creating the Deployment web: 2 Pods labelled app: web');
    const injected = output.match(
      /Pod web-[a-z0-9]+-[a-z0-9]+ added: Pending; containers web, log-agent; chinalhr\.github\.io\/sidecar-hash \{"logging":"[0-9a-f]{64}"\}/g,
    );
    expect(injected).toHaveLength(2);
    expect(output).toMatch(
      /SidecarSet logging modified: matched=2 updated=2 ready=2 \(AllPodsUpdated\)/,
    );
    expect(output).toContain(
      "the Deployment's Pods are injected and ready. Point kubectl at the demo:",
    );
    expect(output).toContain('export KUBECONFIG=');
    expect(output).toContain('Press Ctrl-C to stop.');
    expect(output).toContain('demo: stopped');
    expect(code).toBe(0);
  });

  it('binds free metrics and probe ports for port 0, prints them, probes readiness there, and its metrics are secured', {
    timeout: 60_000,
  }, async () => {
    const demo = await runDemo(['myjob']);
    try {
      await demo.waitFor('Press Ctrl-C to stop.', 50_000);
      const [, metrics, health] =
        demo
          .output()
          .match(/metrics on :(\d+), probes on :(\d+), (?:no webhooks|webhooks on :\d+)/) ?? [];
      expect(Number(metrics)).toBeGreaterThan(0);
      expect(Number(health)).toBeGreaterThan(0);
      const ready = await fetch(`http://127.0.0.1:${health}/readyz`);
      expect(ready.status).toBe(200);
      // Secured metrics (the default): HTTPS, and the API server must authenticate the caller,
      // so a scrape without a token is refused (the operators' secure-metrics e2e suites scrape
      // with a token bound to metrics-reader).
      const status = await new Promise<number | undefined>((resolve, reject) => {
        get(
          { host: '127.0.0.1', port: Number(metrics), path: '/metrics', rejectUnauthorized: false },
          (response) => {
            response.resume();
            resolve(response.statusCode);
          },
        ).on('error', reject);
      });
      expect(status).toBe(401);
    } finally {
      demo.child.kill('SIGINT');
    }
    expect(await demo.exited).toBe(0);
    expect(demo.output()).toContain('demo: stopped');
  });

  it('stops, saying so, when the operator cannot bind its metrics port', {
    timeout: 30_000,
  }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const demo = await runDemo(['myjob', '--metrics-port', String(port)]);
      expect(await demo.exited).toBe(1);
      expect(demo.output()).toContain(
        'demo: the operator exited (code 1) before its metrics and probe servers listened',
      );
      expect(demo.output()).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });

  it('refuses a port that is not a number from 0 to 65535', { timeout: 30_000 }, async () => {
    const demo = await runDemo(['myjob', '--health-port', '8o81']);
    expect(await demo.exited).toBe(2);
    expect(demo.output()).toContain(
      'demo: --health-port "8o81" is not a port: give a number from 0 to 65535 (0 for any free one)',
    );
  });

  it('names the operators it knows when given another', { timeout: 30_000 }, async () => {
    const demo = await runDemo(['nosuch']);
    expect(await demo.exited).toBe(2);
    expect(demo.output()).toContain(
      'demo: no operator named "nosuch": run ./scripts/demo.sh [application|myjob|sidecar|balancer] (the operator\'s name without -operator; application when omitted)',
    );
  });

  it('with --real on a machine that cannot build the control plane, says what to install', {
    timeout: 30_000,
  }, async () => {
    // An empty cache and a go command too old to build: what a machine without Go 1.26 sees.
    const dir = await mkdtemp(join(tmpdir(), 'demo-no-go-'));
    try {
      await writeFile(join(dir, 'go'), '#!/bin/sh\necho go1.20.0\n');
      await chmod(join(dir, 'go'), 0o755);
      const { KUBEBUILDER_ASSETS, GOTOOLCHAIN, ...env } = process.env;
      const demo = await runDemo(['--real', '--exit-when-ready'], {
        ...env,
        PATH: `${dir}:${dirname(process.execPath)}`,
        OPS_CONTROL_PLANE_CACHE: join(dir, 'cache'),
      });
      expect(await demo.exited).toBe(1);
      const output = demo.output();
      expect(output).toContain(
        'demo: --real needs the real control plane, which cannot be built here: go is Go 1.20.0, older than the 1.26.0 they need.',
      );
      expect(output).toContain('install Go 1.26.0 or newer');
      expect(output).toContain(
        'demo: Without --real, the demo runs on the local API server with nothing but Node.js.',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
