import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that the OS reports free at the time of the call (it listens on
 * port 0 and closes). Another process can take it before the caller binds it; callers start
 * their servers right after asking.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `start` (which picks its ports with {@link freePort} each time) again while it fails
 * with an error `lostPort` recognises as a port another process took between the pick and the
 * bind, up to three attempts in all; any other error, or the third, is thrown as it is.
 */
export async function retryWhilePortTaken<T>(
  start: () => Promise<T>,
  lostPort: (error: unknown) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 3 || !lostPort(error)) throw error;
    }
  }
}
