import type { Server, Socket } from 'node:net';
import { listenOn } from './port-in-use-error.js';

/**
 * Restarts an API server's listener as a kube-apiserver process restarted over a kept etcd:
 * closes `server` and every connection in `sockets`, calls `whileDown` (the server forgets
 * its watch history there: the watch cache is rebuilt, so watches resuming get 410), waits
 * `downtimeMs` (connections to the port are refused meanwhile), then listens again at the
 * same address and port, so clients reconnect with the same URL, certificates and tokens.
 * Resolves once it listens.
 *
 * @throws {Error} when the server is not listening; a {@link PortInUseError} when another
 *   process took the port meanwhile.
 */
export async function restartListening(
  server: Server | undefined,
  sockets: ReadonlySet<Socket>,
  whileDown: () => void | Promise<void>,
  downtimeMs = 0,
): Promise<void> {
  const address = server?.address();
  if (server === undefined || address === null || typeof address !== 'object')
    throw new Error('the API server is not listening on a TCP port; start it first');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
  await whileDown();
  if (downtimeMs > 0) await new Promise((resolve) => setTimeout(resolve, downtimeMs));
  await listenOn(server, address.port, address.address);
}
