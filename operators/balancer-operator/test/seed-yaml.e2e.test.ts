// The seeds' YAML applies unchanged: OPERATORS.md's sample Balancer, character for character,
// and variants that leave out every field the tutorial's Go types mark optional (omitempty),
// applied with the real kubectl on the control plane of `pnpm test` (the local API server) or
// `pnpm test:binaries` (kube-apiserver, kwok nodes), then reconciled by the operator, running
// as its ServiceAccount under its generated RBAC, to the children the defaults promise.
import { fileURLToPath } from 'node:url';
import { configMaps, deployments, isControlledBy, services } from '@ops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxConfKey } from '../src/controller/balancer-names.js';
import { nginxConfig } from '../src/controller/nginx-config.js';
import { BalancerHarness, namespace, readyCondition } from './balancer-harness.js';

/** OPERATORS.md's sample, verbatim. */
const operatorsMdSample = `apiVersion: exposer.hliangzhao.io/v1alpha1
kind: Balancer
metadata: {name: balancer-sample}
spec:
  ports:
  - {name: http, protocol: TCP, port: 80, targetPort: 5678}
  selector: {app: test}
  backends:
  - {name: v1, weight: 40, selector: {version: v1}}
  - {name: v2, weight: 20, selector: {version: v2}}
  - {name: v3, weight: 40, selector: {version: v3}}
`;

/** The sample without the optional fields of its ports and backends (spec.selector kept). */
const withoutPortAndBackendOptions = `apiVersion: exposer.hliangzhao.io/v1alpha1
kind: Balancer
metadata: {name: defaults}
spec:
  ports:
  - {port: 80}
  selector: {app: test}
  backends:
  - {name: v1, weight: 40}
  - {name: v2, weight: 20}
`;

/** Only what the tutorial requires: port numbers, backend names and weights. */
const onlyRequired = `apiVersion: exposer.hliangzhao.io/v1alpha1
kind: Balancer
metadata: {name: bare}
spec:
  ports:
  - port: 8080
  backends:
  - name: main
    weight: 1
`;

const echoPath = fileURLToPath(new URL('../config/samples/echo_backends.yaml', import.meta.url));

let h: BalancerHarness;

beforeAll(async () => {
  h = await BalancerHarness.start();
  await h.startOperator();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

/** The spec of Service `name`. */
const serviceSpec = async (name: string) => (await h.admin.get(services, name, namespace)).spec;

describe("the seeds' YAML, applied unchanged with kubectl", () => {
  it("OPERATORS.md's sample: created, and reconciled to its front Service, proxy and three backend Services", {
    timeout: 120_000,
  }, async () => {
    await h.kubectl(['apply', '-n', namespace, '-f', echoPath]);
    const applied = await h.kubectl(['apply', '-n', namespace, '-f', '-'], operatorsMdSample);
    expect(applied).toBe('balancer.exposer.hliangzhao.io/balancer-sample created\n');
    const sample = await h.ready('balancer-sample');
    expect(sample.status).toMatchObject({ activeBackendsNum: 3, obsoleteBackendsNum: 0 });
    expect(await serviceSpec('balancer-sample')).toMatchObject({
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 80 }],
    });
    for (const version of ['v1', 'v2', 'v3']) {
      expect(await serviceSpec(`balancer-sample-${version}-backend`)).toMatchObject({
        selector: { app: 'test', version },
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 }],
      });
    }
  });

  it('without port name, protocol, targetPort and backend selectors: TCP, targetPort = port, port tcp-80, spec.selector alone', {
    timeout: 120_000,
  }, async () => {
    const applied = await h.kubectl(
      ['apply', '-n', namespace, '-f', '-'],
      withoutPortAndBackendOptions,
    );
    expect(applied).toBe('balancer.exposer.hliangzhao.io/defaults created\n');
    // The schema's default: the stored object has its protocol (it keys the port list).
    const stored = await h.balancer('defaults');
    expect(stored.spec.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    expect(stored.spec.backends).toEqual([
      { name: 'v1', weight: 40 },
      { name: 'v2', weight: 20 },
    ]);
    const ready = await h.ready('defaults');
    expect(readyCondition(ready)).toMatchObject({ status: 'True', reason: 'Available' });
    expect(ready.status).toMatchObject({ activeBackendsNum: 2, obsoleteBackendsNum: 0 });
    const port = { name: 'tcp-80', protocol: 'TCP', port: 80, targetPort: 80 };
    expect(await serviceSpec('defaults')).toMatchObject({ ports: [port] });
    for (const backend of ['v1', 'v2']) {
      const service = await h.admin.get(services, `defaults-${backend}-backend`, namespace);
      expect(isControlledBy(service, ready)).toBe(true);
      expect(service.spec?.selector).toEqual({ app: 'test' });
      expect(service.spec?.ports).toMatchObject([port]);
    }
    const conf = (await h.admin.get(configMaps, 'defaultsproxy-config', namespace)).data;
    expect(conf?.[nginxConfKey]).toBe(nginxConfig(ready));
    expect(conf?.[nginxConfKey]).toContain('server defaults-v2-backend:80 weight=20;');
    const proxy = await h.admin.get(deployments, 'defaultsproxy', namespace);
    const podSpec = proxy.spec?.template?.spec as
      | { containers: Array<{ ports?: unknown }> }
      | undefined;
    const container = podSpec?.containers[0];
    expect(container?.ports).toMatchObject([
      { name: 'tcp-80', containerPort: 80, protocol: 'TCP' },
    ]);
  });

  it('with only the required fields: every child made, the backend Service selecting nothing, and no write at rest', {
    timeout: 120_000,
  }, async () => {
    const applied = await h.kubectl(['apply', '-n', namespace, '-f', '-'], onlyRequired);
    expect(applied).toBe('balancer.exposer.hliangzhao.io/bare created\n');
    const ready = await h.ready('bare');
    expect(ready.status).toMatchObject({ activeBackendsNum: 1, obsoleteBackendsNum: 0 });
    const backend = await h.admin.get(services, 'bare-main-backend', namespace);
    expect(isControlledBy(backend, ready)).toBe(true);
    expect(backend.spec?.selector).toBeUndefined();
    expect(backend.spec?.ports).toMatchObject([
      { name: 'tcp-8080', protocol: 'TCP', port: 8080, targetPort: 8080 },
    ]);
    expect(await serviceSpec('bare')).toMatchObject({
      ports: [{ name: 'tcp-8080', protocol: 'TCP', port: 8080, targetPort: 8080 }],
    });
    // Converged: re-applying the same YAML leaves the spec as it was (kubectl sends the port
    // list again, which lacks the defaulted protocol, and the API server defaults it again:
    // same generation), and the operator writes nothing.
    await h.settle();
    const settled = h.writes.length;
    await h.kubectl(['apply', '-n', namespace, '-f', '-'], onlyRequired);
    expect((await h.balancer('bare')).metadata.generation).toBe(ready.metadata.generation);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(h.writes.slice(settled)).toEqual([]);
  });

  it('refuses a given port name that is the default name of another port, saying why', async () => {
    const clash = `apiVersion: exposer.hliangzhao.io/v1alpha1
kind: Balancer
metadata: {name: clash}
spec:
  ports:
  - {name: tcp-81, port: 80}
  - {port: 81}
  backends:
  - {name: v1, weight: 1}
`;
    const refused = await h.kubectl(['apply', '-n', namespace, '-f', '-'], clash).then(
      (stdout) => `accepted: ${stdout}`,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/The Balancer "clash" is invalid/);
    expect(refused).toContain(
      'a port name of the form tcp-<number> or udp-<number> is reserved for the port of that protocol and number (the name a port without one gets)',
    );
    // Two ports given one name: refused too (a given name is optional, so the rule skips ports
    // without one).
    const twice = clash
      .replace('{name: tcp-81, port: 80}', '{name: web, port: 80}')
      .replace('{port: 81}', '{name: web, port: 81}')
      .replace('name: clash', 'name: twice');
    const refusedTwice = await h.kubectl(['apply', '-n', namespace, '-f', '-'], twice).then(
      (stdout) => `accepted: ${stdout}`,
      (error: Error) => error.message,
    );
    expect(refusedTwice).toMatch(/The Balancer "twice" is invalid/);
    expect(refusedTwice).toContain('port names must be unique');
    // The name a port would get anyway is fine to give, on that port.
    const ownDefault = clash
      .replace('{name: tcp-81, port: 80}', '{name: tcp-80, port: 80}')
      .replace('name: clash', 'name: own-default');
    expect(await h.kubectl(['apply', '-n', namespace, '-f', '-'], ownDefault)).toBe(
      'balancer.exposer.hliangzhao.io/own-default created\n',
    );
  });
});
