// Shared by config.test.ts, bundle.test.ts and operator-cli.test.ts: rendering the kustomize
// tree, building the bundle into a temporary directory, a local API server with the CRD.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiServer } from '@ops/apiserver';
import { kubeRequest } from '@ops/envtest';
import YAML from 'yaml';
import { applicationResource } from '../src/api/v1/application.js';

/** The operator's directory. */
export const operatorRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** kubectl, as ops-operator finds it. */
export const kubectlBinary = process.env.KUBECTL || 'kubectl';

// Rendered YAML, checked field by field.
export type K8sObject = Record<string, any>;

/** Parses a multi-document YAML stream. */
export function parseYamlStream(text: string): K8sObject[] {
  return YAML.parseAllDocuments(text)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null && object !== undefined);
}

const temporaryDirectories: string[] = [];

/** A new directory under os.tmpdir(), removed by {@link removeTemporaryDirectories}. */
export async function temporaryDirectory(prefix: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `application-operator-${prefix}-`));
  temporaryDirectories.push(directory);
  return directory;
}

/** Removes every directory {@link temporaryDirectory} made in this test file. */
export async function removeTemporaryDirectories(): Promise<void> {
  const directories = temporaryDirectories.splice(0);
  await Promise.all(
    directories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
}

/** `kubectl kustomize <directory>` (relative to `root`), parsed. */
export function render(directory: string, root = operatorRoot): K8sObject[] {
  return parseYamlStream(
    execFileSync(kubectlBinary, ['kustomize', join(root, directory)], { encoding: 'utf8' }),
  );
}

/** The one object of `kind` named `name` in `objects`; throws naming what is there. */
export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.filter((object) => object.kind === kind && object.metadata?.name === name);
  if (found.length !== 1) {
    const present = objects.map((object) => `${object.kind}/${object.metadata?.name}`).join(', ');
    throw new Error(`expected one ${kind}/${name}, found ${found.length}; objects: ${present}`);
  }
  return found[0] as K8sObject;
}

/**
 * A copy of the operator's package.json and config/ in a temporary directory: an operator
 * directory for the verbs that edit config (deploy, build-installer set the image).
 */
export async function copyOfConfig(): Promise<string> {
  const root = await temporaryDirectory('root');
  await cp(join(operatorRoot, 'config'), join(root, 'config'), { recursive: true });
  await cp(join(operatorRoot, 'package.json'), join(root, 'package.json'));
  return root;
}

/**
 * Builds dist/main.js and dist/manifests.js with the package's tsup config into a new
 * temporary directory (never the package's dist/, which other runs may be reading).
 */
export async function buildBundle(): Promise<string> {
  const out = await temporaryDirectory('bundle');
  await new Promise<void>((resolvePromise, reject) => {
    execFile(
      join(operatorRoot, 'node_modules', '.bin', 'tsup'),
      ['--out-dir', out],
      { cwd: operatorRoot },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`tsup failed: ${stderr}`)) : resolvePromise(),
    );
  });
  return out;
}

/** Whether any directory from `directory` up to the root has a node_modules. */
export function nodeModulesAbove(directory: string): string | undefined {
  let current = resolve(directory);
  for (;;) {
    if (existsSync(join(current, 'node_modules'))) return join(current, 'node_modules');
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolvePromise(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** A local API server with the Application CRD, and its admin kubeconfig on disk. */
export interface LocalCluster {
  server: ApiServer;
  kubeconfigPath: string;
  kubeConfig: KubeConfig;
  request(method: string, path: string, body?: unknown): ReturnType<typeof kubeRequest>;
  stop(): Promise<void>;
}

/** Starts {@link LocalCluster}; `crd: false` leaves the CRD out. */
export async function startLocalCluster(options: { crd?: boolean } = {}): Promise<LocalCluster> {
  const server = await ApiServer.start();
  const directory = await temporaryDirectory('cluster');
  const kubeconfigPath = join(directory, 'kubeconfig');
  await writeFile(kubeconfigPath, server.kubeconfig());
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(server.kubeconfig());
  const request = (method: string, path: string, body?: unknown) =>
    kubeRequest(kubeConfig, method, path, body);
  if (options.crd !== false) {
    const created = await request(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      applicationResource.crd(),
    );
    if (created.status !== 201) throw new Error(`CRD not created: ${JSON.stringify(created.body)}`);
  }
  return { server, kubeconfigPath, kubeConfig, request, stop: () => server.stop() };
}
