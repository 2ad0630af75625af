/**
 * kubectl, as every cluster verb runs it: against the current kubeconfig (KUBECONFIG or
 * ~/.kube/config, as kubectl finds it), `$KUBECTL` or `kubectl` from PATH.
 */
import { join } from 'node:path';
import YAML from 'yaml';
import { OperatorCliError } from './errors/operator-cli-error.js';
import { type RunCommandOptions, runCommand } from './run-command.js';

/** A Kubernetes object as kubectl renders it. */
export type K8sObject = Record<string, any>;

/** The kubectl to run: `env.KUBECTL`, else `kubectl` from PATH. */
export function kubectlCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.KUBECTL || 'kubectl';
}

/**
 * Runs kubectl with `args`; resolves with its stdout when `capture`.
 *
 * @throws {OperatorCliError} when kubectl is missing (saying how to install it) or fails
 * (with its stderr: no cluster, forbidden, invalid object ...).
 */
export async function kubectl(
  args: readonly string[],
  options: Omit<RunCommandOptions, 'what' | 'install'> = {},
): Promise<string> {
  try {
    return await runCommand(kubectlCommand(options.env), args, {
      ...options,
      what: 'kubectl',
      install:
        'Install kubectl (https://kubernetes.io/docs/tasks/tools/) or set KUBECTL to its path.',
    });
  } catch (error) {
    if (OperatorCliError.isInstance(error) && unreachable.test(error.stderr ?? '')) {
      const env = options.env ?? process.env;
      const config = env.KUBECONFIG ? `KUBECONFIG=${env.KUBECONFIG}` : '~/.kube/config';
      throw new OperatorCliError(
        `no cluster answers at the current kubeconfig (${config}): start one (kind create cluster, or pnpm local-cluster in the ops repository) or point KUBECONFIG at one, then run this again.\n${[...new Set(error.message.split('\n'))].join('\n')}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** What kubectl says when no API server answers. */
const unreachable =
  /connection refused|Unable to connect to the server|couldn't get current server API group list|no such host|i\/o timeout/;

/** Parses a multi-document YAML stream, leaving out empty documents. */
export function parseYamlStream(text: string): K8sObject[] {
  return YAML.parseAllDocuments(text)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null && object !== undefined);
}

/** Serialises objects as a multi-document YAML stream. */
export function toYamlStream(objects: readonly unknown[]): string {
  return objects.map((object) => YAML.stringify(object)).join('---\n');
}

/**
 * The objects `kubectl kustomize <root>/<directory>` renders, parsed.
 *
 * @throws {OperatorCliError} as {@link kubectl}.
 */
export async function kustomize(
  root: string,
  directory: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<K8sObject[]> {
  return parseYamlStream(
    await kubectl(['kustomize', join(root, directory)], { capture: true, env }),
  );
}
