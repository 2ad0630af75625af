import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  Environment,
  type EnvironmentOptions,
  kubeRequest,
  openWatch,
  type WatchStream,
} from '../src/index.js';

const run = promisify(execFile);
const kubectlBinary = process.env.KUBECTL ?? 'kubectl';

/** A control plane for one test file, with the clients the suites use. */
export interface TestCluster {
  env: Environment;
  kubeConfig: KubeConfig;
  /** Raw HTTP as admin: resolves with any status. */
  request(
    method: string,
    path: string,
    body?: unknown,
    options?: { contentType?: string; accept?: string; kubeConfig?: KubeConfig },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** A raw watch as admin. */
  watch(path: string): Promise<WatchStream>;
  /**
   * The real kubectl ($KUBECTL, or `binary`); resolves with stdout, rejects with stderr as the
   * message.
   */
  kubectl(
    args: string[],
    options?: {
      input?: string;
      kubeconfig?: string;
      env?: Record<string, string>;
      binary?: string;
    },
  ): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts an {@link Environment}: the local API server, or real binaries when
 * KUBEBUILDER_ASSETS is set — the conformance suites run unchanged on either.
 */
export async function startCluster(options: EnvironmentOptions = {}): Promise<TestCluster> {
  const env = await Environment.start(options);
  const kubeConfig = env.kubeConfig;
  const scratch = await mkdtemp(join(tmpdir(), 'ops-conformance-'));
  return {
    env,
    kubeConfig,
    async request(method, path, body, options = {}) {
      const response = await kubeRequest(
        options.kubeConfig ?? kubeConfig,
        method,
        path,
        body,
        options,
      );
      const headers = new Headers();
      for (const [key, value] of Object.entries(response.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
          headers.append(key, item);
      }
      return { status: response.status, body: response.body, headers };
    },
    watch: (path) => openWatch(kubeConfig, path),
    async kubectl(args, options = {}) {
      let input: string | undefined;
      if (options.input !== undefined) {
        input = join(scratch, `input-${Math.random().toString(36).slice(2)}.yaml`);
        await writeFile(input, options.input);
      }
      const finalArgs = input ? args.map((arg) => (arg === '-' ? input : arg)) : args;
      try {
        const { stdout } = await run(
          options.binary ?? kubectlBinary,
          ['--kubeconfig', options.kubeconfig ?? env.kubeconfigPath, ...finalArgs],
          {
            timeout: 30_000,
            env: { ...process.env, ...options.env },
          },
        );
        return stdout;
      } catch (error) {
        const failure = error as {
          stderr?: string;
          stdout?: string;
          code?: string;
          message: string;
        };
        if (failure.code === 'ENOENT')
          throw new Error(
            `kubectl is not installed: install it or set KUBECTL (${failure.message})`,
          );
        // A failing kubectl explains itself on stderr; `auth can-i` answers "no" on stdout.
        throw new Error(failure.stderr?.trim() || failure.stdout?.trim() || failure.message);
      }
    },
    async stop() {
      await env.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
