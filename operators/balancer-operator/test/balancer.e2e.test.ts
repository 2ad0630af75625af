// The balancer-operator end to end, as it runs in a cluster: the CRD installed from
// config/crd/bases and the controller running as the manager's ServiceAccount under the RBAC of
// `kubectl kustomize config/default`, both as `pnpm run manifests` generated them, with
// OPERATORS.md's sample (config/samples, verbatim) and its three http-echo Pods. `pnpm test`
// runs it on the local API server's simulated cluster (@ops/envtest), `pnpm test:binaries` on
// real etcd + kube-apiserver + kube-controller-manager with kwok nodes, whose authorizer then
// judges the generated ClusterRole.
import { fileURLToPath } from 'node:url';
import {
  configMaps,
  deployments,
  endpoints,
  isControlledBy,
  type KubernetesObject,
  pods,
  services,
} from '@ops/core';
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Balancer } from '../src/api/v1alpha1/balancer.js';
import {
  backendNameLabel,
  balancerNameLabel,
  configHashAnnotation,
  nginxConfKey,
} from '../src/controller/balancer-names.js';
import { nginxConfig } from '../src/controller/nginx-config.js';
import { configHash, nginxUser } from '../src/controller/proxy-deployment.js';
import { checkNginxConfig, findNginx, localNginxConfig } from '../src/local-nginx/index.js';
import { BalancerHarness, namespace, readyCondition, sampleDocuments } from './balancer-harness.js';

const name = 'balancer-sample';
const samplePath = fileURLToPath(
  new URL('../config/samples/exposer_v1alpha1_balancer.yaml', import.meta.url),
);
const echoPath = fileURLToPath(new URL('../config/samples/echo_backends.yaml', import.meta.url));

let h: BalancerHarness;

beforeAll(async () => {
  h = await BalancerHarness.start();
  await h.startOperator();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

/** The proxy's nginx.conf as the cluster holds it. */
const clusterConf = async () =>
  (await h.admin.get(configMaps, `${name}proxy-config`, namespace)).data?.[nginxConfKey] ?? '';

/** The IPs in the Endpoints of Service `service`. */
const endpointIps = async (service: string) => {
  const found = await h.admin.get(endpoints, service, namespace).catch(() => undefined);
  return (found?.subsets ?? []).flatMap((subset) => (subset.addresses ?? []).map((a) => a.ip));
};

/** Resolves once the proxy Deployment has rolled out the Pod template of config hash `hash`. */
const proxyRolledOut = (hash: string) =>
  eventually(
    async () => {
      const proxy = await h.admin.get(deployments, `${name}proxy`, namespace);
      const status = proxy.status ?? {};
      return (
        proxy.spec?.template?.metadata?.annotations?.[configHashAnnotation] === hash &&
        (status.observedGeneration ?? 0) >= (proxy.metadata?.generation ?? 1) &&
        status.updatedReplicas === 1 &&
        status.availableReplicas === 1 &&
        proxy
      );
    },
    {
      description: `proxy Deployment rolled out with config ${hash.slice(0, 12)}`,
      timeoutMs: 60_000,
    },
  );

const patchSpec = (spec: Partial<Balancer['spec']>) =>
  h.admin.patch(
    {
      apiVersion: 'exposer.hliangzhao.io/v1alpha1',
      kind: 'Balancer',
      metadata: { name, namespace },
    },
    { spec },
    'merge',
  );

describe('balancer-operator, end to end', () => {
  it('serves the sample with kubectl: front Service, proxy Ready, one backend Service per echo Pod, 3 active', {
    timeout: 120_000,
  }, async () => {
    const applied = await h.kubectl(['apply', '-n', namespace, '-f', echoPath, '-f', samplePath]);
    expect(applied).toContain(`balancer.exposer.hliangzhao.io/${name} created`);
    const sample = await h.ready(name);
    expect(sample.status).toMatchObject({ activeBackendsNum: 3, obsoleteBackendsNum: 0 });
    expect(readyCondition(sample)).toMatchObject({ reason: 'Available' });

    const front = await h.admin.get(services, name, namespace);
    expect(isControlledBy(front, sample)).toBe(true);
    expect(front.spec).toMatchObject({
      selector: { [balancerNameLabel]: name },
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 80 }],
    });

    const conf = await clusterConf();
    expect(conf).toBe(nginxConfig(sample));
    const proxy = await proxyRolledOut(configHash(conf));
    expect(isControlledBy(proxy, sample)).toBe(true);
    const podSpec = proxy.spec?.template.spec;
    expect(podSpec?.containers[0]).toMatchObject({ image: 'nginx:1.15.9' });
    expect(podSpec?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: nginxUser });

    // Each backend Service selects its own echo Pod, and only it.
    for (const version of ['v1', 'v2', 'v3']) {
      const service = await h.admin.get(services, `${name}-${version}-backend`, namespace);
      expect(isControlledBy(service, sample)).toBe(true);
      expect(service.spec).toMatchObject({
        selector: { app: 'test', version },
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 }],
      });
      const pod = await eventually(
        async () => {
          const found = await h.admin.get(pods, `echo-${version}`, namespace);
          return found.status?.podIP ? found : false;
        },
        { description: `echo-${version} has an IP`, timeoutMs: 60_000 },
      );
      await eventually(
        async () => {
          const ips = await endpointIps(`${name}-${version}-backend`);
          return ips.length === 1 && ips[0] === pod.status?.podIP;
        },
        { description: `the Endpoints of ${version} hold echo-${version} only`, timeoutMs: 60_000 },
      );
    }

    const table = await h.kubectl(['get', 'balancers', '-n', namespace]);
    expect(table).toMatch(/NAME\s+ACTIVE\s+OBSOLETE\s+READY\s+AGE/);
    expect(table).toMatch(new RegExp(`${name}\\s+3\\s+0\\s`));
    // The READY column's JSONPath filter is evaluated by the API server's table printing, which
    // the local server does not do yet; kubectl's own JSONPath reads the same field.
    const readyStatus = await h.kubectl([
      'get',
      'balancer',
      name,
      '-n',
      namespace,
      '-o',
      'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
    ]);
    expect(readyStatus).toBe('True');
    // An Event is written after the status it explains: wait for it rather than read it once.
    const created =
      'Created: Created Service balancer-sample-v1-backend, Service balancer-sample-v2-backend, Service balancer-sample-v3-backend, ConfigMap balancer-sampleproxy-config, Deployment balancer-sampleproxy, Service balancer-sample';
    await eventually(async () => (await h.events(name)).includes(created));
  });

  it('generates an nginx.conf that a real nginx accepts (nginx -t)', async () => {
    const nginx = await findNginx();
    // nginx -t resolves the upstream host names: the cluster's Service names become 127.0.0.1.
    const local = localNginxConfig(await clusterConf(), {
      listen: (port) => port,
      upstream: (_host, port) => `127.0.0.1:${port}`,
    });
    await expect(checkNginxConfig(nginx, local)).resolves.toMatch(/test is successful/);
  });

  it('writes nothing while nothing changes', { timeout: 30_000 }, async () => {
    await h.settle();
    const before = h.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(h.writes.slice(before)).toEqual([]);
  });

  it('refuses, with kubectl showing why, what nginx would refuse or cannot work', {
    timeout: 60_000,
  }, async () => {
    const sample = (await sampleDocuments('exposer_v1alpha1_balancer.yaml'))[0] as Balancer;
    const bad = (spec: Partial<Balancer['spec']>) =>
      JSON.stringify({
        ...sample,
        metadata: { name: 'bad', namespace },
        spec: { ...sample.spec, ...spec },
      });
    const backend = { name: 'v1', weight: 1, selector: { version: 'v1' } };
    const port = { name: 'http', protocol: 'TCP' as const, port: 80, targetPort: 5678 };
    const refusals: Array<[string, string, RegExp]> = [
      ['no backends', bad({ backends: [] }), /spec\.backends.*at least 1 item/],
      [
        'an empty backend name',
        bad({ backends: [{ ...backend, name: '' }] }),
        /spec\.backends\[0\]\.name/,
      ],
      [
        'a weight below 1',
        bad({ backends: [{ ...backend, weight: 0 }] }),
        /spec\.backends\[0\]\.weight.*greater than or equal to 1/,
      ],
      [
        'duplicate backend names',
        bad({ backends: [backend, { ...backend, weight: 2 }] }),
        /spec\.backends\[1\]: Duplicate value/,
      ],
      [
        'duplicate ports',
        bad({ ports: [port, { ...port, name: 'web' }] }),
        /spec\.ports\[1\]: Duplicate value/,
      ],
      [
        'a protocol other than TCP/UDP',
        bad({ ports: [{ ...port, protocol: 'SCTP' as 'TCP' }] }),
        /spec\.ports\[0\]\.protocol.*Unsupported value: "SCTP"/,
      ],
      [
        'a port out of range',
        bad({ ports: [{ ...port, port: 70000 }] }),
        /spec\.ports\[0\]\.port.*less than or equal to 65535/,
      ],
      ['no ports', bad({ ports: [] }), /spec\.ports.*at least 1 item/],
    ];
    for (const [what, manifest, message] of refusals) {
      const refused = await h.kubectl(['apply', '-f', '-'], manifest).then(
        (stdout) => `accepted: ${stdout}`,
        (error: Error) => error.message,
      );
      expect(refused, what).toMatch(/The Balancer "bad" is invalid/);
      expect(refused, what).toMatch(message);
    }
  });

  it('re-weights, renames a port and changes its number: the ConfigMap follows and the proxy Pods roll', {
    timeout: 90_000,
  }, async () => {
    const before = await clusterConf();
    const backends = [
      { name: 'v1', weight: 10, selector: { version: 'v1' } },
      { name: 'v2', weight: 60, selector: { version: 'v2' } },
      { name: 'v3', weight: 30, selector: { version: 'v3' } },
    ];
    await patchSpec({
      backends,
      ports: [{ name: 'web', protocol: 'TCP', port: 8080, targetPort: 5678 }],
    });
    const changed = await h.ready(name);
    const conf = await clusterConf();
    expect(conf).not.toBe(before);
    expect(conf).toBe(nginxConfig(changed));
    expect(conf).toContain(`server ${name}-v2-backend:8080 weight=60;`);
    expect(conf).toContain('listen 8080;');
    await proxyRolledOut(configHash(conf));
    const front = await h.admin.get(services, name, namespace);
    expect(front.spec?.ports).toMatchObject([{ name: 'web', port: 8080, targetPort: 8080 }]);
    const backend = await h.admin.get(services, `${name}-v2-backend`, namespace);
    expect(backend.spec?.ports).toMatchObject([{ name: 'web', port: 8080, targetPort: 5678 }]);
    expect(changed.status).toMatchObject({ activeBackendsNum: 3, obsoleteBackendsNum: 0 });
  });

  it('deletes the Service of a removed backend, counting it obsolete until it is gone', {
    timeout: 90_000,
  }, async () => {
    // A finalizer of the test's holds the Service while it is being deleted.
    const held = `${name}-v3-backend`;
    await h.admin.patch(
      { apiVersion: 'v1', kind: 'Service', metadata: { name: held, namespace } },
      { metadata: { finalizers: ['test.example.com/hold'] } },
      'merge',
    );
    const { backends } = (await h.balancer(name)).spec;
    await patchSpec({ backends: backends.filter((backend) => backend.name !== 'v3') });
    await h.until(
      name,
      'v3 counted obsolete',
      (b) => b.status?.activeBackendsNum === 2 && b.status?.obsoleteBackendsNum === 1,
    );
    const deleting = await h.admin.get(services, held, namespace);
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    expect(await clusterConf()).not.toContain(held);

    await h.admin.patch(deleting, { metadata: { finalizers: null } }, 'merge');
    await eventually(() => h.gone(services, held), {
      description: `${held} gone`,
      timeoutMs: 30_000,
    });
    const after = await h.until(
      name,
      'nothing obsolete',
      (b) => b.status?.obsoleteBackendsNum === 0,
    );
    expect(after.status?.activeBackendsNum).toBe(2);
    await eventually(async () =>
      (await h.events(name)).includes(`DeletedService: Deleted obsolete backend Service ${held}`),
    );
  });

  it('leaves a Service with a backend name but another owner alone, reports it, then takes the freed name', {
    timeout: 90_000,
  }, async () => {
    const foreign: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `${name}-v4-backend`, namespace, labels: { owner: 'someone-else' } },
      spec: { selector: { app: 'other' }, ports: [{ port: 1234 }] },
    };
    const created = await h.admin.create(foreign);
    const { backends } = (await h.balancer(name)).spec;
    await patchSpec({
      backends: [...backends, { name: 'v4', weight: 5, selector: { version: 'v4' } }],
    });
    const conflicted = await h.until(
      name,
      'NameConflict',
      (b) => readyCondition(b)?.reason === 'NameConflict',
    );
    expect(readyCondition(conflicted)?.message).toContain(
      `Service ${name}-v4-backend exists and is not controlled by this Balancer`,
    );
    expect(conflicted.status?.activeBackendsNum).toBe(2);
    const untouched = await h.admin.get(services, `${name}-v4-backend`, namespace);
    expect(untouched.metadata?.ownerReferences).toBeUndefined();
    expect(untouched.metadata?.labels).toEqual({ owner: 'someone-else' });
    expect(untouched.spec?.selector).toEqual({ app: 'other' });
    expect(untouched.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    await eventually(async () =>
      (await h.events(name)).some((event) => event.startsWith('NameConflict: ')),
    );

    await h.admin.delete(untouched);
    const resolved = await h.ready(name);
    expect(resolved.status).toMatchObject({ activeBackendsNum: 3, obsoleteBackendsNum: 0 });
    const taken = await h.admin.get(services, `${name}-v4-backend`, namespace);
    expect(isControlledBy(taken, resolved)).toBe(true);
    expect(taken.metadata?.labels?.[backendNameLabel]).toBe('v4');
  });

  it('reports a name its children cannot take on the Balancer, and makes nothing', {
    timeout: 60_000,
  }, async () => {
    // Kubernetes accepts the Balancer (names up to 253), but not a 64-character Service name.
    const long = `${'l'.repeat(60)}-lb0`;
    await h.admin.create({
      apiVersion: 'exposer.hliangzhao.io/v1alpha1',
      kind: 'Balancer',
      metadata: { name: long, namespace },
      spec: {
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 }],
        selector: { app: 'test' },
        backends: [{ name: 'v1', weight: 1, selector: { version: 'v1' } }],
      },
    });
    const reported = await h.until(
      long,
      'InvalidName',
      (b) => readyCondition(b)?.reason === 'InvalidName',
    );
    expect(readyCondition(reported)?.status).toBe('False');
    expect(readyCondition(reported)?.message).toContain('front Service name');
    // The Warning event is recorded after the status is written: wait for it, not race it.
    await eventually(
      async () => (await h.events(long)).some((event) => event.startsWith('InvalidName: ')),
      { description: 'the InvalidName Warning event', timeoutMs: 30_000 },
    );
    await expect(h.admin.get(services, long, namespace)).rejects.toMatchObject({
      code: 404,
    });
    await h.admin.delete(reported);
  });

  it('converges after restarts, including a change made while it was down, then writes nothing', {
    timeout: 120_000,
  }, async () => {
    await h.stopOperator();
    await patchSpec({
      backends: [
        { name: 'v1', weight: 40, selector: { version: 'v1' } },
        { name: 'v2', weight: 20, selector: { version: 'v2' } },
        { name: 'v3', weight: 40, selector: { version: 'v3' } },
      ],
    });
    await h.startOperator();
    const converged = await h.ready(name);
    expect(converged.status).toMatchObject({ activeBackendsNum: 3, obsoleteBackendsNum: 0 });
    expect(await h.gone(services, `${name}-v4-backend`)).toBe(true);
    await proxyRolledOut(configHash(await clusterConf()));
    await h.settle();

    await h.stopOperator();
    const before = h.writes.length;
    await h.startOperator();
    // The new manager lists everything and reconciles every Balancer; give it the time.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await h.settle();
    expect(h.writes.slice(before)).toEqual([]);
  });
});
