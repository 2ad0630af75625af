// The traffic split of a Balancer, proven with a real nginx (issue #13): the nginx.conf the
// operator generates runs on this machine's nginx (with the stream module; ./scripts/test.sh
// installs it, and without it these tests fail, saying how to install it), and local echo
// servers stand in for the backend Services, each answering with its backend's name.
//
// How the configuration reaches this machine: `localNginxConfig` rewrites only the `listen`
// lines (to free ports on 127.0.0.1) and the upstream `server <name>-<backend>-backend:<port>`
// lines (to the echo server of that backend and port); the upstreams, weights, `udp` and
// `proxy_responses` lines are the operator's, byte for byte. nginx resolves upstream names with
// the system resolver when it loads the file, so mapping them in the text needs neither a DNS
// server nor root.
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { freePort } from '@ops/envtest';
import { afterEach, describe, expect, it } from 'vitest';
import type { Balancer, BalancerBackend } from '../src/api/v1alpha1/balancer.js';
import { resolvedPorts } from '../src/api/v1alpha1/balancer-defaults.js';
import { backendServiceName } from '../src/controller/balancer-names.js';
import { nginxConfig } from '../src/controller/nginx-config.js';
import { testBalancer } from '../src/controller/test-balancer.js';
import {
  type EchoServer,
  findNginx,
  localNginxConfig,
  measureSplit,
  type RunningNginx,
  splitShares,
  startEchoServer,
  startNginx,
} from '../src/local-nginx/index.js';

const requests = 10_000;
const tolerance = 2; // percentage points

const running: Array<EchoServer | RunningNginx> = [];
afterEach(async () => {
  const stopping = running.splice(0);
  await Promise.all(stopping.map((item) => ('stop' in item ? item.stop() : item.close())));
});

/** A free UDP port on 127.0.0.1, as the OS hands it out. */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/**
 * Runs `balancer`'s generated nginx.conf on a real nginx, with one echo server per backend and
 * port answering the backend's name; resolves with nginx's local port for each Balancer port.
 */
async function runBalancer(balancer: Balancer): Promise<Map<number, number>> {
  const nginx = await findNginx();
  const name = balancer.metadata.name ?? '';
  const upstreams = new Map<string, string>();
  for (const port of resolvedPorts(balancer)) {
    for (const backend of balancer.spec.backends) {
      const echo = await startEchoServer(backend.name, port.protocol);
      running.push(echo);
      upstreams.set(
        `${backendServiceName(name, backend.name)}:${port.port}`,
        `127.0.0.1:${echo.port}`,
      );
    }
  }
  const listen = new Map<number, number>();
  for (const port of resolvedPorts(balancer)) {
    listen.set(port.port, port.protocol === 'UDP' ? await freeUdpPort() : await freePort());
  }
  const conf = localNginxConfig(nginxConfig(balancer), {
    listen: (port) => listen.get(port),
    upstream: (host, port) => upstreams.get(`${host}:${port}`),
  });
  running.push(await startNginx(nginx, conf));
  return listen;
}

/** Each backend's expected share in percent: its weight over the sum of weights. */
const expectedShares = (backends: BalancerBackend[]) => {
  const total = backends.reduce((sum, backend) => sum + backend.weight, 0);
  return Object.fromEntries(
    backends.map((backend) => [backend.name, (100 * backend.weight) / total]),
  );
};

/** Asserts every backend got its weight's share within the tolerance, and nothing else answered. */
function expectSplit(shares: Record<string, number>, backends: BalancerBackend[]) {
  const expected = expectedShares(backends);
  expect(Object.keys(shares).sort()).toEqual(Object.keys(expected).sort());
  for (const [backend, share] of Object.entries(expected)) {
    expect(
      Math.abs((shares[backend] ?? 0) - share),
      `${backend}: ${shares[backend]}% vs ${share}%`,
    ).toBeLessThanOrEqual(tolerance);
  }
}

describe('a Balancer through a real nginx', () => {
  it("splits 10,000 TCP connections 40/20/40 over the sample's three backends", async () => {
    const sample = testBalancer();
    const listen = await runBalancer(sample);
    const split = await measureSplit({ port: listen.get(80) ?? 0, protocol: 'TCP', requests });
    expect(split.failed).toBe(0);
    expectSplit(splitShares(split), sample.spec.backends);
  });

  it('splits 10,000 UDP datagrams 40/20/40 on a UDP port next to a TCP one', async () => {
    const balancer = testBalancer({
      ports: [
        { name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 },
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 },
      ],
    });
    const listen = await runBalancer(balancer);
    const split = await measureSplit({ port: listen.get(53) ?? 0, protocol: 'UDP', requests });
    // UDP may drop a datagram on a busy machine; the split is judged on what was answered.
    expect(split.failed).toBeLessThan(requests / 100);
    expectSplit(splitShares(split), balancer.spec.backends);
  });

  it('splits by the new weights when the Balancer changes them', async () => {
    const reweighted = testBalancer({
      backends: [
        { name: 'v1', weight: 10, selector: { version: 'v1' } },
        { name: 'v2', weight: 60, selector: { version: 'v2' } },
        { name: 'v3', weight: 30, selector: { version: 'v3' } },
      ],
    });
    const listen = await runBalancer(reweighted);
    const split = await measureSplit({ port: listen.get(80) ?? 0, protocol: 'TCP', requests });
    expect(split.failed).toBe(0);
    expectSplit(splitShares(split), reweighted.spec.backends);
    expect(splitShares(split).v2).toBeGreaterThan(50);
  });
});
