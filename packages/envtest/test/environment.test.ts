import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ControlPlaneAssetsError,
  controlPlaneBinaries,
  Environment,
  kubeRequest,
  startClusterControlPlane,
} from '../src/index.js';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
};

describe('Environment (local API server)', () => {
  it('starts, installs CRDs from a directory so they are served at once, and stops', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'envtest-crds-'));
    await writeFile(join(dir, 'widgets.yaml'), JSON.stringify(crd));
    const env = await Environment.start({ crdDirectoryPaths: [dir] });
    try {
      expect(env.kind).toBe('local');
      const created = await kubeRequest(
        env.kubeConfig,
        'POST',
        '/apis/example.com/v1/namespaces/default/widgets',
        { metadata: { name: 'w' }, spec: { size: 3 } },
      );
      expect(created.status).toBe(201);
      await env.installCrds([crd]);
    } finally {
      await env.stop();
    }
  });

  it('gives a service-account kubeconfig that RBAC applies to', async () => {
    const env = await Environment.start({ apiServer: { rbac: true } });
    try {
      const kubeconfig = await env.serviceAccountKubeconfig('default', 'operator');
      const { KubeConfig } = await import('@kubernetes/client-node');
      const config = new KubeConfig();
      config.loadFromString(kubeconfig);
      const denied = await kubeRequest(config, 'GET', '/api/v1/namespaces/default/pods');
      expect(denied.status).toBe(403);
      expect((denied.body as { message: string }).message).toContain(
        'User "system:serviceaccount:default:operator" cannot list resource "pods"',
      );
    } finally {
      await env.stop();
    }
  });

  it('fails clearly when a CRD path is missing', async () => {
    await expect(Environment.start({ crdDirectoryPaths: ['/no/crds'] })).rejects.toThrow(
      'manifest path /no/crds does not exist',
    );
  });

  it('names the port, the option that sets it and what to do when the port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(
        Environment.start({ controlPlane: 'local', apiServer: { port } }),
      ).rejects.toThrow(
        `envtest: the local API server cannot listen on port ${port} of 127.0.0.1: the port is already in use. It is set by the apiServer.port option of Environment.start: leave it unset (a free port is picked) or choose another, or stop the process listening there (lsof -i :${port} shows which)`,
      );
    } finally {
      holder.close();
    }
  });
});

describe('Environment (binaries from KUBEBUILDER_ASSETS)', () => {
  it('names a missing binary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'envtest-assets-'));
    await expect(Environment.start({ binaryAssetsDirectory: dir })).rejects.toThrow(
      `KUBEBUILDER_ASSETS=${dir} has no etcd`,
    );
  });

  it('refuses a Kubernetes release that is not pinned, naming those that are, before building', async () => {
    const previous = process.env.KUBEBUILDER_ASSETS;
    delete process.env.KUBEBUILDER_ASSETS;
    try {
      const started = Environment.start({ controlPlane: 'binaries', kubernetesVersion: '1.20' });
      await expect(started).rejects.toThrow(
        /^Kubernetes "1\.20" is not a pinned release: use one of 1\.\d+ \(1\.\d+\.\d+\), 1\.35 \(1\.35\.\d+\)/,
      );
      await expect(started).rejects.toSatisfy(ControlPlaneAssetsError.isInstance);
    } finally {
      if (previous !== undefined) process.env.KUBEBUILDER_ASSETS = previous;
    }
  });

  it('refuses the binaries plane to a suite that requires Pods, before starting anything', async () => {
    await expect(Environment.start({ controlPlane: 'binaries', requires: 'pods' })).rejects.toThrow(
      "this suite requires running Pods (requires: 'pods')",
    );
  });

  it('names the binary the cluster plane misses and how to get it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'envtest-assets-'));
    for (const binary of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'])
      await writeFile(join(dir, binary), '');
    const started = Environment.start({ binaryAssetsDirectory: dir, requires: 'pods' });
    await expect(started).rejects.toThrow(
      `${dir} has no kwok: the cluster plane runs etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kwokctl from one directory. Build them with \`pnpm control-plane build\``,
    );
    await expect(started).rejects.toSatisfy(ControlPlaneAssetsError.isInstance);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a default Pod run time that is not a duration, before starting anything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'envtest-assets-'));
    for (const binary of controlPlaneBinaries) await writeFile(join(dir, binary), '');
    await expect(startClusterControlPlane(dir, { podRunDuration: '3 seconds' })).rejects.toThrow(
      'podRunDuration "3 seconds" is not a duration: write a number with a unit, such as 500ms, 3s or 1m30s',
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('starts etcd and kube-apiserver as processes with the flags they need, and stops them', {
    timeout: 40_000,
  }, async () => {
    // Stand-ins for the real binaries, speaking their command lines: the fake etcd answers
    // /health; the fake kube-apiserver is this project's API server (built dist), started on
    // --secure-port with the token from --token-auth-file, its CA written to --cert-dir.
    const dir = await mkdtemp(join(tmpdir(), 'envtest-fake-assets-'));
    const here = dirname(fileURLToPath(import.meta.url));
    const apiserverDist = join(here, '..', 'node_modules', '@ops', 'apiserver', 'dist', 'index.js');
    await writeFile(
      join(dir, 'etcd'),
      `#!/usr/bin/env node
const http = require('node:http');
const url = new URL(process.argv.find((a, i) => process.argv[i - 1] === '--listen-client-urls'));
http.createServer((req, res) => res.end('{"health":"true"}')).listen(Number(url.port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`,
    );
    await writeFile(
      join(dir, 'kube-apiserver'),
      `#!/usr/bin/env node
const { readFileSync, mkdirSync, writeFileSync } = require('node:fs');
const flag = (name) => process.argv.find((a) => a.startsWith('--' + name + '='))?.split('=').slice(1).join('=');
(async () => {
  const { ApiServer, createServingCertificates } = await import(${JSON.stringify(apiserverDist)});
  const token = readFileSync(flag('token-auth-file'), 'utf8').split(',')[0];
  const certificates = await createServingCertificates(['localhost', '127.0.0.1']);
  mkdirSync(flag('cert-dir'), { recursive: true });
  writeFileSync(flag('cert-dir') + '/apiserver.crt', certificates.caCert);
  const server = await ApiServer.start({ port: Number(flag('secure-port')), adminToken: token, certificates, rbac: flag('authorization-mode') === 'RBAC' });
  process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
})();
`,
    );
    await chmod(join(dir, 'etcd'), 0o755);
    await chmod(join(dir, 'kube-apiserver'), 0o755);
    const env = await Environment.start({
      binaryAssetsDirectory: dir,
      crds: [crd],
      timeoutMs: 20_000,
    });
    try {
      expect(env.kind).toBe('binaries');
      const listed = await kubeRequest(env.kubeConfig, 'GET', '/apis/example.com/v1/widgets');
      expect(listed.status).toBe(200);
    } finally {
      await env.stop();
    }
  });
});
