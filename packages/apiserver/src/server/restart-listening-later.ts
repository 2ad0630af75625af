import type { ServerResponse } from 'node:http';
import { StatusError } from '../api/status-error.js';
import type { ApiServer } from './api-server.js';
import { sendJson } from './http/responses.js';

/** The longest downtime `POST /__ops/restart-listening` accepts, in milliseconds. */
export const maxRestartDowntimeMs = 60_000;

/**
 * `POST /__ops/restart-listening` `{"downtimeMs": n, "resetStore": bool}`: answers 202 at
 * once, then, once the answer is sent, restarts the server's listener (over a kept store, or
 * an emptied one with `resetStore`: {@link ApiServer.restartListening}), so a
 * test driving a server in another process sees it go away and come back at the same
 * address. A restart that fails (another process took the port) is reported as a process
 * warning: the server then stays down, and its clients see refused connections.
 *
 * @throws {StatusError} 400 when `downtimeMs` is not a number of milliseconds from 0 to
 *   {@link maxRestartDowntimeMs}.
 */
export function restartListeningLater(
  server: ApiServer,
  res: ServerResponse,
  downtime: unknown,
  resetStore: unknown,
): void {
  const downtimeMs = downtime ?? 0;
  if (
    typeof downtimeMs !== 'number' ||
    !Number.isFinite(downtimeMs) ||
    downtimeMs < 0 ||
    downtimeMs > maxRestartDowntimeMs
  )
    throw StatusError.badRequest(
      `downtimeMs: Invalid value: ${JSON.stringify(downtime)}: send {"downtimeMs": <0 to ${maxRestartDowntimeMs}>}`,
    );
  res.on('finish', () => {
    server
      .restartListening({ downtimeMs, resetStore: resetStore === true })
      .catch((error: unknown) => {
        process.emitWarning(
          `the local API server could not listen again after its restart: ${(error as Error).message}`,
        );
      });
  });
  sendJson(res, 202, { restarting: true, downtimeMs, resetStore: resetStore === true });
}
