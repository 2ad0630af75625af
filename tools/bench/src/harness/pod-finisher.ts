import type { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest, openWatch } from '@ops/envtest';
import pLimit from 'p-limit';

/** A running {@link startPodFinisher}. */
export interface PodFinisher {
  /** Pods it has finished. */
  readonly finished: number;
  /** Stops watching; waits for the finishes under way. */
  stop(): Promise<void>;
}

/**
 * Plays the container runtime for Pods that run to completion on the local API server: each
 * Pod of `namespace` seen Running is finished `Succeeded` with exit code 0 through the
 * server's control endpoint `POST /__ops/pods/finish` (its simulated kubelet runs Pods until
 * told). Up to 16 finishes at a time; a Pod already gone or finished is skipped.
 *
 * @throws {Error} when the watch of Pods cannot be opened.
 */
export async function startPodFinisher(
  kubeConfig: KubeConfig,
  namespace: string,
): Promise<PodFinisher> {
  const watch = await openWatch(kubeConfig, `/api/v1/namespaces/${namespace}/pods?watch=true`);
  const limit = pLimit(16);
  const done = new Set<string>();
  const pending: Promise<void>[] = [];
  let seen = 0;
  const poll = setInterval(() => {
    for (const event of watch.events.slice(seen)) {
      const pod = event.object as {
        metadata?: { name?: string };
        status?: { phase?: string };
      };
      const name = pod.metadata?.name ?? '';
      if (event.type === 'DELETED' || pod.status?.phase !== 'Running' || done.has(name)) continue;
      done.add(name);
      pending.push(
        limit(async () => {
          const response = await kubeRequest(kubeConfig, 'POST', '/__ops/pods/finish', {
            namespace,
            name,
            phase: 'Succeeded',
            exitCode: 0,
          });
          if (response.status >= 500)
            throw new Error(`finishing Pod ${name} failed: HTTP ${response.status}`);
        }),
      );
    }
    seen = watch.events.length;
  }, 20);
  return {
    get finished() {
      return done.size;
    },
    async stop() {
      clearInterval(poll);
      watch.close();
      await Promise.all(pending);
    },
  };
}
