// The balancer-operator's part of the demo: its sample (OPERATORS.md's Balancer and its three
// http-echo Pods, from config/samples), what the demo shows (the Balancer, its proxy Deployment
// and backend Services as they change), and at the end the traffic split measured through a
// real nginx on the nginx.conf the operator wrote, when this machine has one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, objectKind } from '@ops/core';
import { freePort, openWatch } from '@ops/envtest';
import YAML from 'yaml';

const operatorDir = new URL('../../../operators/balancer-operator/', import.meta.url);
const namespace = 'default';
const requests = 10_000;

/**
 * Runs the Balancer's nginx.conf (as the cluster holds it) on this machine's nginx, with an
 * echo server per backend answering `hello world <backend>` as the sample's Pods do, sends
 * 10,000 TCP connections to its first port and reports each backend's share next to its weight.
 * Only the listen ports and the upstream host names are rewritten (see localNginxConfig).
 */
async function measureThroughNginx(kubeConfig, balancer, say) {
  const nginxKit = await import(new URL('dist/local-nginx.js', operatorDir).href);
  let nginx;
  try {
    nginx = await nginxKit.findNginx();
  } catch (error) {
    if (!nginxKit.NginxNotFoundError.isInstance(error)) throw error;
    say(`no traffic split measured: ${error.message}`);
    return;
  }
  const client = new Client({ kubeConfig });
  const name = balancer.metadata.name;
  try {
    const configMap = await client.get(
      objectKind('v1', 'ConfigMap'),
      `${name}proxy-config`,
      namespace,
    );
    const port = balancer.spec.ports.find((p) => p.protocol === 'TCP') ?? balancer.spec.ports[0];
    const echoes = new Map();
    for (const backend of balancer.spec.backends) {
      const echo = await nginxKit.startEchoServer(`hello world ${backend.name}`, port.protocol);
      echoes.set(`${name}-${backend.name}-backend:${port.port}`, echo);
    }
    const localPort = await freePort();
    // The sample has one port; any other port of a changed Balancer listens on a port the OS
    // picks and proxies to the discard port: only the measured one matters here.
    const conf = nginxKit.localNginxConfig(configMap.data['nginx.conf'], {
      listen: (p, protocol) => (p === port.port && protocol === port.protocol ? localPort : 0),
      upstream: (host, p) => {
        const echo = echoes.get(`${host}:${p}`);
        return echo ? `127.0.0.1:${echo.port}` : '127.0.0.1:9';
      },
    });
    const running = await nginxKit.startNginx(nginx, conf);
    try {
      say(
        `measuring the split through nginx ${nginx.version} on ${name}proxy-config's nginx.conf: ${requests} ${port.protocol} requests to port ${port.name}`,
      );
      const split = await nginxKit.measureSplit({
        port: localPort,
        protocol: port.protocol,
        requests,
      });
      const shares = nginxKit.splitShares(split);
      const total = balancer.spec.backends.reduce((sum, b) => sum + b.weight, 0);
      for (const backend of balancer.spec.backends) {
        const share = shares[`hello world ${backend.name}`] ?? 0;
        say(
          `  ${backend.name}: ${share.toFixed(1)}% (weight ${backend.weight} of ${total}: ${((100 * backend.weight) / total).toFixed(1)}%)`,
        );
      }
      if (split.failed > 0) say(`  ${split.failed} requests failed`);
    } finally {
      await running.stop();
      for (const echo of echoes.values()) await echo.close();
    }
  } finally {
    client.close();
  }
}

/** The demo of the balancer-operator (`./scripts/demo.sh balancer`). */
export const balancerDemo = {
  name: 'balancer-operator',
  dir: 'operators/balancer-operator',

  /** Nothing beyond its CRDs: it has no webhooks. Resolves with the operator's flags. */
  async install() {
    return ['--disable-webhooks'];
  },

  /** Applies config/samples: the three echo Pods, then Balancer balancer-sample, to `default`. */
  async applySample(client, say, dir) {
    const documents = (file) =>
      YAML.parseAllDocuments(readFileSync(join(dir, 'config/samples', file), 'utf8')).map((d) =>
        d.toJS(),
      );
    for (const pod of documents('echo_backends.yaml')) {
      await client.create({ ...pod, metadata: { ...pod.metadata, namespace } });
    }
    const [sample] = documents('exposer_v1alpha1_balancer.yaml');
    const weights = sample.spec.backends.map((b) => `${b.name}=${b.weight}`).join(' ');
    say(
      `applying the sample Balancer ${sample.metadata.name} (config/samples; weights ${weights}) and its echo Pods echo-v1..3`,
    );
    await client.create({ ...sample, metadata: { ...sample.metadata, namespace } });
  },

  /**
   * Reports Balancers, Deployments and Services of `default` as they change; once the sample is
   * Ready, measures its split through a real nginx (when installed), then calls `onReady`.
   * Resolves with `{ poll, close }`.
   */
  async watch(kubeConfig, say, onReady) {
    const streams = {
      balancers: await openWatch(
        kubeConfig,
        '/apis/exposer.hliangzhao.io/v1alpha1/namespaces/default/balancers?watch=true',
      ),
      deployments: await openWatch(
        kubeConfig,
        '/apis/apps/v1/namespaces/default/deployments?watch=true',
      ),
      services: await openWatch(kubeConfig, '/api/v1/namespaces/default/services?watch=true'),
    };
    const seen = { balancers: 0, deployments: 0, services: 0 };
    const show = {
      balancers: (b) => {
        const ready = b.status?.conditions?.find((c) => c.type === 'Ready');
        return `Balancer ${b.metadata.name}: active=${b.status?.activeBackendsNum ?? '-'} obsolete=${b.status?.obsoleteBackendsNum ?? '-'}${ready ? ` ready=${ready.status} (${ready.reason})` : ''}`;
      },
      deployments: (d) =>
        `Deployment ${d.metadata.name}: ${d.status?.availableReplicas ?? 0}/${d.spec?.replicas ?? 1} available, image ${d.spec?.template?.spec?.containers?.[0]?.image}`,
      services: (s) =>
        `Service ${s.metadata.name}: selector ${Object.entries(s.spec?.selector ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(',')}`,
    };
    let measuring = false;
    return {
      poll(at) {
        for (const [kind, stream] of Object.entries(streams)) {
          for (const event of stream.events.slice(seen[kind])) {
            if (kind === 'services' && event.object.metadata.name === 'kubernetes') continue;
            say(`${at()} ${show[kind](event.object)} (${event.type.toLowerCase()})`);
            const b = event.object;
            const ready = b.status?.conditions?.find((c) => c.type === 'Ready');
            if (kind === 'balancers' && ready?.status === 'True' && !measuring) {
              measuring = true;
              measureThroughNginx(kubeConfig, b, say).then(
                () =>
                  onReady('the sample Balancer is ready', [
                    'kubectl get balancers -o wide',
                    'kubectl get deployments,services,endpoints',
                    'kubectl get configmap balancer-sampleproxy-config -o jsonpath="{.data.nginx\\.conf}"',
                  ]),
                (error) => {
                  say(`measuring the split failed: ${error.message}`);
                  onReady('the sample Balancer is ready (the split could not be measured)', [
                    'kubectl get balancers -o wide',
                  ]);
                },
              );
            }
          }
          seen[kind] = stream.events.length;
        }
      },
      close() {
        for (const stream of Object.values(streams)) stream.close();
      },
    };
  },
};
