// dist/main.js is all the image ships: run it from an empty directory with nothing but
// Node.js, against a local API server, as the container would; then the local development
// route (`ops-operator run` + `ops-operator webhook-local`) with the webhooks served from it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { eventually } from '@ops/envtest';
import {
  certificatesUsable,
  localWebhookHosts,
  readOperatorProject,
  routeWebhooksHere,
  runLocally,
} from '@ops/operator-cli';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildBundle,
  freePort,
  type K8sObject,
  kubectlBinary,
  type LocalCluster,
  nodeModulesAbove,
  operatorRoot,
  removeTemporaryDirectories,
  startLocalCluster,
  temporaryDirectory,
} from './tooling-support.js';

let bundleDir: string;

afterAll(removeTemporaryDirectories);

beforeAll(async () => {
  const built = await buildBundle();
  // An empty directory of its own: only the bundle and its source map, as in the image.
  bundleDir = await temporaryDirectory('image');
  await copyFile(join(built, 'main.js'), join(bundleDir, 'main.js'));
  await copyFile(join(built, 'main.js.map'), join(bundleDir, 'main.js.map'));
}, 60_000);

/** Runs the bundle to completion. */
function runToExit(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(bundleDir, 'main.js'), ...args],
      { cwd: bundleDir },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/** Collects a child's output and resolves its exit. */
function watch(child: ChildProcess) {
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { output, exited };
}

/** GET https://127.0.0.1:<port>/metrics (self-signed: not verified) with a bearer token. */
function scrapeMetrics(
  port: number,
  token: string | undefined,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        rejectUnauthorized: false,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function httpStatus(url: string): Promise<number> {
  const response = await fetch(url);
  await response.text();
  return response.status;
}

describe('the bundle in an empty directory', () => {
  it('has nothing but main.js and its map, and no node_modules above it', async () => {
    expect((await readdir(bundleDir)).sort()).toEqual(['main.js', 'main.js.map']);
    expect(nodeModulesAbove(bundleDir)).toBeUndefined();
  });

  it('prints its flags with --help and exits 0', async () => {
    const result = await runToExit(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: application-operator \[options\]/);
    for (const flag of [
      '--kubeconfig',
      '--metrics-bind-address',
      '--health-probe-bind-address',
      '--leader-elect',
      '--webhook-port',
      '--webhook-cert-dir',
      '--disable-webhooks',
      '--log-level',
    ]) {
      expect(result.stdout).toContain(flag);
    }
    expect(result.stderr).toBe('');
  });

  it('rejects an unknown flag with a clear error and exit code 1', async () => {
    const result = await runToExit(['--no-such-flag']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "application-operator: Unknown option '--no-such-flag'\n\nRun with --help for the options.\n",
    );
  });

  it('refuses a bad flag value, naming the flag, with exit code 1', async () => {
    const result = await runToExit(['--webhook-port=https']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'application-operator: --webhook-port must be a port number from 0 to 65535, got "https"\n\nRun with --help for the options.\n',
    );
  });

  describe('against a local API server', () => {
    let cluster: LocalCluster;
    beforeAll(async () => {
      cluster = await startLocalCluster();
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    it('exits 1 (and does not hang) when the self-managed certificate mode cannot tell its namespace', async () => {
      const result = await runToExit([
        '--kubeconfig',
        cluster.kubeconfigPath,
        '--webhook-cert-mode=self-managed',
        '--metrics-bind-address=0',
        '--health-probe-bind-address=0',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'application-operator: --webhook-cert-mode=self-managed needs the namespace of its Secret and webhook Service: set --webhook-cert-namespace (or WEBHOOK_CERT_NAMESPACE) when not running in a Pod\n\nRun with --help for the options.\n',
      );
    });

    it('reconciles an Application into its Deployment, serves probes and secured metrics, and exits 0 on SIGTERM', async () => {
      const [metricsPort, healthPort] = [await freePort(), await freePort()];
      const child = spawn(
        process.execPath,
        [
          'main.js',
          '--kubeconfig',
          cluster.kubeconfigPath,
          '--disable-webhooks',
          `--metrics-bind-address=127.0.0.1:${metricsPort}`,
          `--health-probe-bind-address=127.0.0.1:${healthPort}`,
        ],
        {
          cwd: bundleDir,
          env: { PATH: process.env.PATH ?? '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const { output, exited } = watch(child);
      try {
        await eventually(
          async () => (await httpStatus(`http://127.0.0.1:${healthPort}/readyz`)) === 200,
          {
            timeoutMs: 15_000,
            description: `/readyz; operator stderr: ${output.stderr}`,
          },
        );
        expect(await httpStatus(`http://127.0.0.1:${healthPort}/healthz`)).toBe(200);
        // Secure by default: HTTPS (self-signed), the caller's token reviewed by the API server.
        const admin = await scrapeMetrics(metricsPort, cluster.server.adminToken);
        expect(admin.status).toBe(200);
        expect(admin.body).toContain('# TYPE controller_runtime_reconcile_total counter');
        const anonymous = await scrapeMetrics(metricsPort, undefined);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toMatch(/^Unauthorized: no bearer token/);
        expect((await scrapeMetrics(metricsPort, 'forged')).status).toBe(401);

        const created = await cluster.request(
          'POST',
          '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications',
          {
            apiVersion: 'core.crd.lixueduan.com/v1',
            kind: 'Application',
            metadata: { name: 'demo', namespace: 'default' },
            spec: { enabled: true, image: 'nginx:1.22' },
          },
        );
        expect(created.status).toBe(201);
        const deployment = await eventually(
          async () => {
            const response = await cluster.request(
              'GET',
              '/apis/apps/v1/namespaces/default/deployments/app-demo',
            );
            return response.status === 200 ? (response.body as K8sObject) : false;
          },
          { timeoutMs: 15_000, description: 'Deployment app-demo' },
        );
        expect(deployment.spec.replicas).toBe(1);
        expect(deployment.spec.template.spec.containers[0].image).toBe('nginx:1.22');
        expect(deployment.metadata.ownerReferences).toEqual([
          expect.objectContaining({ kind: 'Application', name: 'demo', controller: true }),
        ]);
        // The simulated cluster rolls the Deployment out; the operator reports it.
        await eventually(
          async () => {
            const response = await cluster.request(
              'GET',
              '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications/demo',
            );
            return (response.body as K8sObject).status?.ready === true;
          },
          { timeoutMs: 15_000, description: 'Application demo ready' },
        );

        child.kill('SIGTERM');
        const exit = await exited;
        expect(exit).toEqual({ code: 0, signal: null });
        const logs = output.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(logs[0]).toMatchObject({
          operator: 'application-operator',
          msg: 'starting the application-operator',
        });
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }, 60_000);
  });
});

describe('local development: ops-operator run + ops-operator webhook-local', () => {
  const project = readOperatorProject(operatorRoot);
  let cluster: LocalCluster;
  let child: ChildProcess | undefined;
  const previousKubeconfig = process.env.KUBECONFIG;
  beforeAll(async () => {
    cluster = await startLocalCluster();
    process.env.KUBECONFIG = cluster.kubeconfigPath;
  });
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previousKubeconfig;
    await cluster?.stop();
  });

  it('serves the webhooks with generated local certificates, reached through the selector-less Service', async () => {
    const certDir = join(await temporaryDirectory('certs'), 'serving-certs');
    const [webhookPort, metricsPort, healthPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];

    // The cluster side: Service without selector + Endpoints to this machine + both webhook
    // configurations trusting the local CA (which it generates).
    const route = await routeWebhooksHere(project, {
      hostIp: '127.0.0.1',
      port: webhookPort,
      certDir,
    });
    const kinds = route.objects.map(
      (object: K8sObject) => `${object.kind}/${object.metadata.name}`,
    );
    expect(kinds).toEqual([
      'Namespace/application-operator-system',
      'Service/application-operator-webhook-service',
      'Endpoints/application-operator-webhook-service',
      'MutatingWebhookConfiguration/application-operator-mutating-webhook-configuration',
      'ValidatingWebhookConfiguration/application-operator-validating-webhook-configuration',
    ]);
    const service = await cluster.request(
      'GET',
      '/api/v1/namespaces/application-operator-system/services/application-operator-webhook-service',
    );
    expect((service.body as K8sObject).spec.selector).toBeUndefined();
    const endpoints = await cluster.request(
      'GET',
      '/api/v1/namespaces/application-operator-system/endpoints/application-operator-webhook-service',
    );
    expect((endpoints.body as K8sObject).subsets).toEqual([
      {
        addresses: [{ ip: '127.0.0.1' }],
        ports: [{ name: 'webhook', port: webhookPort, protocol: 'TCP' }],
      },
    ]);

    // The certificates: signed by the CA, for localhost, 127.0.0.1 and the Service's names.
    const caCert = await readFile(join(certDir, 'ca.crt'), 'utf8');
    const cert = await readFile(join(certDir, 'tls.crt'), 'utf8');
    const key = await readFile(join(certDir, 'tls.key'), 'utf8');
    expect(
      certificatesUsable({ caCert, cert, key }, localWebhookHosts(project, ['127.0.0.1'])),
    ).toBe(true);
    expect(new X509Certificate(cert).subjectAltName).toContain(
      'DNS:application-operator-webhook-service.application-operator-system.svc',
    );
    const validating = await cluster.request(
      'GET',
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/application-operator-validating-webhook-configuration',
    );
    const caBundle = (validating.body as K8sObject).webhooks[0].clientConfig.caBundle;
    expect(Buffer.from(caBundle, 'base64').toString('utf8')).toBe(caCert);

    // `ops-operator run`: the operator with those certificates (reused, not regenerated).
    const lines: string[] = [];
    const started = await runLocally(project, {
      argv: [
        '--kubeconfig',
        cluster.kubeconfigPath,
        `--webhook-port=${webhookPort}`,
        `--metrics-bind-address=127.0.0.1:${metricsPort}`,
        `--health-probe-bind-address=127.0.0.1:${healthPort}`,
      ],
      bundle: join(bundleDir, 'main.js'),
      certDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      log: (line: string) => lines.push(line),
    });
    child = started.child as ChildProcess;
    const { output } = watch(child);
    expect(lines[0]).toBe(`using webhook serving certificates in ${certDir} (CA: ca.crt)`);
    await eventually(
      async () => (await httpStatus(`http://127.0.0.1:${healthPort}/readyz`)) === 200,
      {
        timeoutMs: 15_000,
        description: `/readyz; operator stderr: ${output.stderr}`,
      },
    );

    // TLS to the webhook port verifies against the local CA for "localhost".
    const tlsStatus = await new Promise<number>((resolve, reject) => {
      const request = httpsRequest(
        {
          host: '127.0.0.1',
          servername: 'localhost',
          port: webhookPort,
          path: '/healthz',
          ca: caCert,
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(tlsStatus).toBeGreaterThanOrEqual(200);

    // kubectl -> API server -> Service -> Endpoints -> this process: the validating webhook.
    const bad = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const kubectl = spawn(kubectlBinary, ['apply', '-f', '-'], { env: process.env });
      let stderr = '';
      kubectl.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      kubectl.on('exit', (code) => resolve({ code, stderr }));
      kubectl.stdin.end(
        JSON.stringify({
          apiVersion: 'core.crd.lixueduan.com/v1',
          kind: 'Application',
          metadata: { name: 'bad', namespace: 'default' },
          spec: { image: 'Not A/valid::image' },
        }),
      );
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: Not A/valid::image',
    );
    const good = await cluster.request(
      'POST',
      '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications',
      {
        apiVersion: 'core.crd.lixueduan.com/v1',
        kind: 'Application',
        metadata: { name: 'good', namespace: 'default' },
        spec: { image: 'nginx:1.22' },
      },
    );
    expect(good.status).toBe(201);
    expect((good.body as K8sObject).spec).toEqual({ enabled: true, image: 'nginx:1.22' });

    // SIGTERM, as Ctrl-C in `ops-operator run` forwards it: a clean exit.
    child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 60_000);
});
