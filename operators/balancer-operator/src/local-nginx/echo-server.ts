import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A local server answering every request with one fixed text, started by {@link startEchoServer}. */
export interface EchoServer {
  /** The port on 127.0.0.1 it serves. */
  port: number;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts a stand-in for one backend on 127.0.0.1 (a free port, chosen by the OS): over TCP it
 * writes `text` to each connection and closes it; over UDP it answers each datagram with one
 * datagram holding `text`. Like http-echo's `-text`, so the answer says which backend served.
 */
export async function startEchoServer(text: string, protocol: 'TCP' | 'UDP'): Promise<EchoServer> {
  if (protocol === 'UDP') {
    const socket = createSocket('udp4');
    socket.on('message', (_message, from) => socket.send(text, from.port, from.address));
    socket.bind(0, '127.0.0.1');
    await once(socket, 'listening');
    return {
      port: socket.address().port,
      close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
    };
  }
  const server = createServer((connection) => {
    connection.on('error', () => connection.destroy());
    connection.end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('echo server: no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
