import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { WatchEvent as ApiWatchEvent } from '@ops/api';

/** One event of a watch, as the API server sent it; its object is typed loosely for tests to read. */
// biome-ignore lint/suspicious/noExplicitAny: events carry arbitrary objects; tests read them freely
export type WatchEvent = ApiWatchEvent<any>;

/** An open watch: every event received so far, and ways to wait for more. */
export interface WatchStream {
  /** All events received, in order. */
  readonly events: WatchEvent[];
  /** Resolves when the server ends the stream or the connection drops. */
  readonly ended: Promise<void>;
  /** Waits for the next `count` events not yet taken by `next`, failing after `timeoutMs`. */
  next(count?: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Closes the connection. */
  close(): void;
}

/**
 * Opens a raw watch (`path` should carry `watch=true` and any selectors) on the cluster of
 * `kubeConfig`, as its current user. Resolves once the server answered with headers.
 */
export async function openWatch(kubeConfig: KubeConfig, path: string): Promise<WatchStream> {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null)
    throw new Error('the kubeconfig has no current cluster; set current-context');
  const url = new URL(path, cluster.server);
  const options: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  await kubeConfig.applyToHTTPSOptions(options);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    let buffer = '';
    let taken = 0;
    let markEnded: () => void = () => undefined;
    const ended = new Promise<void>((done) => {
      markEnded = done;
    });
    const request = transport.request(url, options, (response) => {
      if ((response.statusCode ?? 0) >= 300) {
        response.resume();
        reject(new Error(`watch ${path} answered ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line) events.push(JSON.parse(line) as WatchEvent);
        }
      });
      for (const event of ['end', 'error', 'close'] as const) response.on(event, () => markEnded());
      resolve({
        events,
        ended,
        async next(count = 1, timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          while (events.length < taken + count) {
            if (Date.now() > deadline) {
              throw new Error(
                `expected ${count} more watch events within ${timeoutMs} ms, got ${events.length - taken}: ${JSON.stringify(events.slice(taken).map((e) => e.type))}`,
              );
            }
            await new Promise((r) => setTimeout(r, 5));
          }
          const batch = events.slice(taken, taken + count);
          taken += count;
          return batch;
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', (error) => {
      markEnded();
      reject(error);
    });
    request.end();
  });
}
