// The child process of watch-memory.test.ts: the built API server (plain HTTP, no simulated
// cluster), started with the options given as JSON in argv[2]. It prints its URL and admin
// token as one JSON line, then answers each IPC message "measure" with its memory after two
// full garbage collections (it runs with --expose-gc): resident (rss), the JS heap in use
// (heapUsed) and what JavaScript holds, heap and Buffers (held), and its watch bookkeeping.
import { ApiServer } from '../dist/index.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const server = await ApiServer.start({ https: false, cluster: false, ...options });
process.on('message', (message) => {
  if (message !== 'measure') return;
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  process.send({ rss, heapUsed, held: heapUsed + external, ...server.watchBookkeeping() });
});
process.on('disconnect', () => {
  server.stop().then(() => process.exit(0));
});
process.stdout.write(`${JSON.stringify({ url: server.url, token: server.adminToken })}\n`);
