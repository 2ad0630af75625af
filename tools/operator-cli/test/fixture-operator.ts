// The sample operator under test/fixtures (a minimal kubebuilder layout: CRD, manager with two
// Secret volumes, one validating webhook), copied into temporary directories for the tests
// that read or change an operator.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture in the source tree (inside the ops workspace: never change it). */
export const fixtureRoot = join(
  dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'sample-operator',
);

const made: string[] = [];

/**
 * A copy of the sample operator in a new temporary directory, outside any workspace; with
 * `workspace`, at `<tmp>/operators/sample-operator` under a pnpm-workspace.yaml.
 */
export function copyFixture(options: { workspace?: boolean } = {}): string {
  const base = mkdtempSync(join(tmpdir(), 'ops-operator-cli-'));
  made.push(base);
  const root = options.workspace ? join(base, 'operators', 'sample-operator') : join(base, 'op');
  cpSync(fixtureRoot, root, { recursive: true });
  if (options.workspace)
    writeFileSync(join(base, 'pnpm-workspace.yaml'), 'packages:\n  - operators/*\n');
  return root;
}

/** A new empty temporary directory, removed by {@link removeCopies}. */
export function emptyDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'ops-operator-cli-'));
  made.push(directory);
  return directory;
}

/** Removes every directory made by this module in the current test file. */
export function removeCopies(): void {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
}

/** Output collected from `main`. */
export function capture() {
  const output = { stdout: '', stderr: '' };
  return {
    output,
    io: {
      stdout: (text: string) => {
        output.stdout += text;
      },
      stderr: (text: string) => {
        output.stderr += text;
      },
    },
  };
}

/**
 * A CustomResourceDefinition of `kind` in `group` (namespaced, plural: the kind in lower case
 * plus s) with versions v1 (stored) and v2, converting through the webhook at `/convert` of
 * `service`, as ops-manifests renders one for `conversion: 'Webhook'`; its schemas accept
 * anything.
 */
export function conversionCrd(
  group: string,
  kind: string,
  service: { name: string; namespace: string },
) {
  const plural = `${kind.toLowerCase()}s`;
  const schema = {
    openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true, schema },
        { name: 'v2', served: true, storage: false, schema },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { ...service, path: '/convert' } },
          conversionReviewVersions: ['v1'],
        },
      },
    },
  };
}
