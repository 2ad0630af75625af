import { createSocket } from 'node:dgram';
import { connect } from 'node:net';

/** What {@link measureSplit} sends and where. */
export interface SplitOptions {
  /** The port on 127.0.0.1 to send to (nginx's). */
  port: number;
  protocol: 'TCP' | 'UDP';
  /** How many requests: TCP connections, or UDP datagrams each from a new socket. */
  requests: number;
  /** How many are in flight at once (default 32). */
  concurrency?: number;
  /** How long one request may take before it counts as failed, in ms (default 5000). */
  timeoutMs?: number;
}

/** How the requests were answered: the count of each answer text, and how many failed. */
export interface Split {
  answers: Record<string, number>;
  failed: number;
}

/** One TCP request: connect, read until the server closes, return what it said. */
function tcpRequest(port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let text = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timed out')));
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      socket.end();
      resolve(text);
    });
  });
}

/** One UDP request from a new socket (a new nginx session): one datagram out, one back. */
function udpRequest(port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('timed out'));
    }, timeoutMs);
    socket.on('error', (error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    });
    socket.on('message', (message) => {
      clearTimeout(timer);
      socket.close();
      resolve(message.toString('utf8'));
    });
    socket.send('ping', port, '127.0.0.1');
  });
}

/**
 * Sends `requests` requests to 127.0.0.1:`port` and counts the answers, to see how a load
 * balancer split them between backends that answer with their own text ({@link startEchoServer}).
 * A request that errs or times out counts in `failed`; none is retried, so the counts are
 * exactly what the balancer did.
 */
export async function measureSplit(options: SplitOptions): Promise<Split> {
  const { port, protocol, requests } = options;
  const concurrency = options.concurrency ?? 32;
  const timeoutMs = options.timeoutMs ?? 5000;
  const request = protocol === 'UDP' ? udpRequest : tcpRequest;
  const answers: Record<string, number> = {};
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next += 1;
      try {
        const answer = await request(port, timeoutMs);
        answers[answer] = (answers[answer] ?? 0) + 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, worker));
  return { answers, failed };
}

/** Each answer's share of the answered requests, in percent. */
export function splitShares(split: Split): Record<string, number> {
  const answered = Object.values(split.answers).reduce((sum, count) => sum + count, 0);
  return Object.fromEntries(
    Object.entries(split.answers).map(([answer, count]) => [answer, (100 * count) / answered]),
  );
}
