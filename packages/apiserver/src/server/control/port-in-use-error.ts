import type { Server } from 'node:net';

const marker = Symbol.for('@ops/apiserver.PortInUseError');

/**
 * The API server could not listen because its port is taken (`EADDRINUSE`). `port` and
 * `host` say where; the message says what to do: pass another `port` option (0 picks a free
 * one) or stop the process that listens there. Whoever starts the server on a user's behalf
 * (the `local-cluster` CLI, envtest) words it with the flag or option that sets the port.
 * Recognise it with {@link PortInUseError.isInstance}, which works even when two copies of
 * `@ops/apiserver` are loaded.
 */
export class PortInUseError extends Error {
  readonly [marker] = true;
  override readonly name = 'PortInUseError';
  /** Node's error code, kept for code that tests for it. */
  readonly code = 'EADDRINUSE';

  constructor(
    /** The port asked for. */
    readonly port: number,
    /** The interface asked for. */
    readonly host: string,
    options?: ErrorOptions,
  ) {
    super(
      `port ${port} on ${host} is already in use: pass another port to ApiServer.start (port 0 picks a free one), or stop the process listening on it (lsof -i :${port} shows which)`,
      options,
    );
  }

  static isInstance(error: unknown): error is PortInUseError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/**
 * Listens on `port` of `host` (0 picks a free port) and resolves with the port listened on;
 * rejects with a {@link PortInUseError} when the port is taken, with Node's error otherwise.
 */
export function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new PortInUseError(port, host, { cause: error }) : error,
      ),
    );
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
