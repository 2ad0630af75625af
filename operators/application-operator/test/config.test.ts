// The kustomize tree under config/, checked in its RENDERED form (what `kubectl apply -k`
// would send), and the generated files under config/ against the generator.
import { execFileSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtInKindResources } from '@ops/core/client';
import { clusterRoleFromRules, mergePolicyRules, shardingPermissions } from '@ops/core/crd';
import { certificateNamesOf, controllerKindsOf } from '@ops/core/operator';
import { main as opsManifests } from '@ops/manifests';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationResource } from '../src/api/v1/application.js';
import {
  customResources,
  leaderElectionRules,
  rbac,
  selfManagedCertificateRbac,
} from '../src/manifests.js';
import { applicationOperator, applicationShardingRing } from '../src/operator.js';
import { mutatePath, validatePath } from '../src/webhook/application.js';
import {
  buildBundle,
  find,
  type K8sObject,
  kubectlBinary,
  operatorRoot,
  parseYamlStream,
  removeTemporaryDirectories,
  render,
  temporaryDirectory,
} from './tooling-support.js';

afterAll(removeTemporaryDirectories);

const namespace = 'application-operator-system';
const prefix = 'application-operator-';
const serviceAccount = `${prefix}controller-manager`;

/**
 * Every rule of the Pod Security Standard "restricted" (which includes "baseline") that a
 * Pod spec breaks, as kube-apiserver's PodSecurity admission evaluates them.
 */
function restrictedViolations(pod: K8sObject): string[] {
  const problems: string[] = [];
  const podContext = pod.securityContext ?? {};
  const containers: K8sObject[] = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (pod[field] === true) problems.push(`${field} is true`);
  }
  const allowedVolumes = [
    'configMap',
    'csi',
    'downwardAPI',
    'emptyDir',
    'ephemeral',
    'persistentVolumeClaim',
    'projected',
    'secret',
  ];
  for (const volume of pod.volumes ?? []) {
    const types = Object.keys(volume).filter((key) => key !== 'name');
    if (!types.every((type) => allowedVolumes.includes(type))) {
      problems.push(`volume ${volume.name} has type ${types.join(',')}`);
    }
  }
  if (podContext.runAsUser === 0) problems.push('pod runAsUser is 0');
  if (podContext.seLinuxOptions?.user || podContext.seLinuxOptions?.role) {
    problems.push('pod sets SELinux user/role');
  }
  for (const sysctl of podContext.sysctls ?? []) problems.push(`pod sets sysctl ${sysctl.name}`);
  const podSeccomp = podContext.seccompProfile?.type;
  for (const container of containers) {
    const context = container.securityContext ?? {};
    const name = `container ${container.name}`;
    if (context.privileged === true) problems.push(`${name} is privileged`);
    if (context.allowPrivilegeEscalation !== false) {
      problems.push(`${name} allowPrivilegeEscalation is not false`);
    }
    const runAsNonRoot = context.runAsNonRoot ?? podContext.runAsNonRoot;
    if (runAsNonRoot !== true) problems.push(`${name} runAsNonRoot is not true`);
    if (context.runAsUser === 0) problems.push(`${name} runAsUser is 0`);
    const seccomp = context.seccompProfile?.type ?? podSeccomp;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
      problems.push(`${name} seccompProfile is ${seccomp}`);
    }
    if (!(context.capabilities?.drop ?? []).includes('ALL')) {
      problems.push(`${name} does not drop ALL capabilities`);
    }
    for (const added of context.capabilities?.add ?? []) {
      if (added !== 'NET_BIND_SERVICE') problems.push(`${name} adds capability ${added}`);
    }
    if (context.procMount !== undefined && context.procMount !== 'Default') {
      problems.push(`${name} procMount is ${context.procMount}`);
    }
    if (context.windowsOptions?.hostProcess === true) problems.push(`${name} is a hostProcess`);
    for (const port of container.ports ?? []) {
      if (port.hostPort) problems.push(`${name} uses hostPort ${port.hostPort}`);
    }
  }
  return problems;
}

const expectedRules = [
  {
    apiGroups: ['core.crd.lixueduan.com'],
    apiVersions: ['v1'],
    operations: ['CREATE', 'UPDATE'],
    resources: ['applications'],
  },
];

function expectedWebhook(name: string, path: string) {
  return {
    name,
    admissionReviewVersions: ['v1'],
    clientConfig: {
      service: { name: `${prefix}webhook-service`, namespace, path },
    },
    failurePolicy: 'Fail',
    rules: expectedRules,
    sideEffects: 'None',
  };
}

describe('config/default (with cert-manager)', () => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = render('config/default');
  });

  it('renders exactly the expected objects', () => {
    const ids = objects.map((object) => `${object.kind}/${object.metadata.name}`).sort();
    expect(ids).toEqual(
      [
        `Namespace/${namespace}`,
        'CustomResourceDefinition/applications.core.crd.lixueduan.com',
        `ServiceAccount/${serviceAccount}`,
        `ClusterRole/${prefix}manager-role`,
        `ClusterRoleBinding/${prefix}manager-rolebinding`,
        `Role/${prefix}leader-election-role`,
        `RoleBinding/${prefix}leader-election-rolebinding`,
        `Role/${prefix}sharding-role`,
        `RoleBinding/${prefix}sharding-rolebinding`,
        `ClusterRole/${prefix}application-editor-role`,
        `ClusterRole/${prefix}application-viewer-role`,
        `ClusterRole/${prefix}metrics-auth-role`,
        `ClusterRoleBinding/${prefix}metrics-auth-rolebinding`,
        `ClusterRole/${prefix}metrics-reader`,
        `Deployment/${prefix}controller-manager`,
        `Service/${prefix}controller-manager-metrics-service`,
        `Service/${prefix}webhook-service`,
        `MutatingWebhookConfiguration/${prefix}mutating-webhook-configuration`,
        `ValidatingWebhookConfiguration/${prefix}validating-webhook-configuration`,
        `Issuer/${prefix}selfsigned-issuer`,
        `Certificate/${prefix}serving-cert`,
      ].sort(),
    );
  });

  it('puts every namespaced object in application-operator-system, which enforces PSS restricted', () => {
    const ns = find(objects, 'Namespace', namespace);
    expect(ns.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const clusterScoped = [
      'Namespace',
      'CustomResourceDefinition',
      'ClusterRole',
      'ClusterRoleBinding',
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
    ];
    for (const object of objects) {
      if (clusterScoped.includes(object.kind)) expect(object.metadata.namespace).toBeUndefined();
      else
        expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe(namespace);
    }
  });

  it('installs the CRD generated from the TypeScript definition', async () => {
    const crd = find(objects, 'CustomResourceDefinition', 'applications.core.crd.lixueduan.com');
    const generated = parseYamlStream(
      await readFile(
        join(operatorRoot, 'config/crd/bases/core.crd.lixueduan.com_applications.yaml'),
        'utf8',
      ),
    );
    expect(generated).toEqual([crd]);
    expect(crd).toEqual(JSON.parse(JSON.stringify(applicationResource.crd())));
    expect(crd.spec.names).toMatchObject({ kind: 'Application', plural: 'applications' });
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.versions.map((version: K8sObject) => version.name)).toEqual(['v1']);
  });

  it('binds the ClusterRole with exactly the generated rules to the prefixed ServiceAccount', async () => {
    const role = find(objects, 'ClusterRole', `${prefix}manager-role`);
    // The declared rules, plus patch on Applications and Deployments for the shard labels
    // (the controller shards under --sharding; one role serves both modes).
    const sharding = shardingPermissions(await controllerKindsOf(applicationOperator), [
      ...customResources,
      ...builtInKindResources,
    ]);
    expect(sharding.clusterRules).toEqual([
      { apiGroups: ['core.crd.lixueduan.com'], resources: ['applications'], verbs: ['patch'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] },
    ]);
    expect(role.rules).toEqual(
      clusterRoleFromRules('manager-role', [...rbac.rules, ...sharding.clusterRules]).rules,
    );
    const generated = parseYamlStream(
      await readFile(join(operatorRoot, 'config/rbac/role.yaml'), 'utf8'),
    );
    expect(role.rules).toEqual(generated[0]?.rules);
    // Least privilege: Leases only through the namespaced leader-election Role.
    expect(role.rules.some((rule: K8sObject) => rule.resources.includes('leases'))).toBe(false);
    find(objects, 'ServiceAccount', serviceAccount);
    const binding = find(objects, 'ClusterRoleBinding', `${prefix}manager-rolebinding`);
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: `${prefix}manager-role`,
    });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: serviceAccount, namespace }]);
  });

  it('grants leader election in the operator namespace only, with leaderElectionRules', () => {
    const role = find(objects, 'Role', `${prefix}leader-election-role`);
    expect(role.metadata.namespace).toBe(namespace);
    expect(role.rules).toEqual(leaderElectionRules);
    expectBoundToManager(
      objects,
      `${prefix}leader-election-rolebinding`,
      `${prefix}leader-election-role`,
    );
  });

  it('runs the manager as the ServiceAccount, with probes, ports, resources and the restricted PSS', () => {
    const deployment = find(objects, 'Deployment', `${prefix}controller-manager`);
    expect(deployment.spec.replicas).toBe(1);
    const pod = deployment.spec.template.spec;
    expect(deployment.spec.template.metadata.labels).toMatchObject(
      deployment.spec.selector.matchLabels,
    );
    expect(pod.serviceAccountName).toBe(serviceAccount);
    expect(pod.containers).toHaveLength(1);
    const manager = pod.containers[0];
    expect(manager.name).toBe('manager');
    expect(manager.image).toBe('application-operator:latest');
    expect(manager.command).toBeUndefined();
    expect(manager.args).toEqual([
      '--leader-elect',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=:8443',
    ]);
    expect(manager.ports).toEqual([
      { containerPort: 8443, name: 'metrics', protocol: 'TCP' },
      { containerPort: 8081, name: 'health', protocol: 'TCP' },
      { containerPort: 9443, name: 'webhook-server', protocol: 'TCP' },
    ]);
    expect(manager.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 8081 });
    expect(manager.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 8081 });
    expect(manager.resources).toEqual({
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '10m', memory: '128Mi' },
    });
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(manager.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(restrictedViolations(pod)).toEqual([]);
    // Read-only root: /tmp is an emptyDir; the webhook Secret at the default cert dir under it.
    expect(manager.volumeMounts).toEqual([
      { mountPath: '/tmp', name: 'tmp' },
      { mountPath: '/tmp/k8s-webhook-server/serving-certs', name: 'webhook-certs', readOnly: true },
    ]);
    expect(pod.volumes).toEqual([
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
      { name: 'webhook-certs', secret: { secretName: 'webhook-server-cert' } },
    ]);
  });

  it('the restricted-PSS check catches what it must', () => {
    const bad = {
      hostNetwork: true,
      volumes: [{ name: 'h', hostPath: { path: '/' } }],
      containers: [
        {
          name: 'c',
          ports: [{ containerPort: 80, hostPort: 80 }],
          securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } },
        },
      ],
    };
    expect(restrictedViolations(bad)).toEqual([
      'hostNetwork is true',
      'volume h has type hostPath',
      'container c is privileged',
      'container c allowPrivilegeEscalation is not false',
      'container c runAsNonRoot is not true',
      'container c seccompProfile is undefined',
      'container c does not drop ALL capabilities',
      'container c adds capability SYS_ADMIN',
      'container c uses hostPort 80',
    ]);
  });

  it('exposes the webhook server (443 -> 9443) and metrics (8443) to the manager Pods', () => {
    const deployment = find(objects, 'Deployment', `${prefix}controller-manager`);
    const podLabels = deployment.spec.template.metadata.labels;
    const webhook = find(objects, 'Service', `${prefix}webhook-service`);
    expect(webhook.spec.ports).toEqual([{ port: 443, protocol: 'TCP', targetPort: 9443 }]);
    expect(podLabels).toMatchObject(webhook.spec.selector);
    const metrics = find(objects, 'Service', `${prefix}controller-manager-metrics-service`);
    expect(metrics.spec.ports).toEqual([
      { name: 'https', port: 8443, protocol: 'TCP', targetPort: 8443 },
    ]);
    expect(podLabels).toMatchObject(metrics.spec.selector);
  });

  it('registers both webhooks with their names, paths and rules, and cert-manager CA injection', () => {
    expect(mutatePath).toBe('/mutate-core-crd-lixueduan-com-v1-application');
    expect(validatePath).toBe('/validate-core-crd-lixueduan-com-v1-application');
    const annotation = { 'cert-manager.io/inject-ca-from': `${namespace}/${prefix}serving-cert` };
    const mutating = find(
      objects,
      'MutatingWebhookConfiguration',
      `${prefix}mutating-webhook-configuration`,
    );
    expect(mutating.metadata.annotations).toEqual(annotation);
    expect(mutating.webhooks).toEqual([
      expectedWebhook('mapplication-v1.lixueduan.com', mutatePath),
    ]);
    const validating = find(
      objects,
      'ValidatingWebhookConfiguration',
      `${prefix}validating-webhook-configuration`,
    );
    expect(validating.metadata.annotations).toEqual(annotation);
    expect(validating.webhooks).toEqual([
      expectedWebhook('vapplication-v1.lixueduan.com', validatePath),
    ]);
  });

  it('has cert-manager issue the serving certificate for the webhook Service into the mounted Secret', () => {
    const issuer = find(objects, 'Issuer', `${prefix}selfsigned-issuer`);
    expect(issuer.spec).toEqual({ selfSigned: {} });
    const certificate = find(objects, 'Certificate', `${prefix}serving-cert`);
    expect(certificate.spec).toEqual({
      dnsNames: [
        `${prefix}webhook-service.${namespace}.svc`,
        `${prefix}webhook-service.${namespace}.svc.cluster.local`,
      ],
      issuerRef: { kind: 'Issuer', name: `${prefix}selfsigned-issuer` },
      secretName: 'webhook-server-cert',
    });
  });
});

describe('config/default-no-certmanager (self-managed webhook certificates)', () => {
  let withCertManager: K8sObject[];
  let without: K8sObject[];
  beforeAll(() => {
    withCertManager = render('config/default');
    without = render('config/default-no-certmanager');
  });

  it('is config/default without cert-manager, with the self-managed mode and its RBAC', () => {
    const certificateRbac = [
      `ClusterRole/${prefix}self-managed-certs-role`,
      `Role/${prefix}self-managed-certs-role`,
      `ClusterRoleBinding/${prefix}self-managed-certs-rolebinding`,
      `RoleBinding/${prefix}self-managed-certs-rolebinding`,
    ];
    const expected = withCertManager
      .filter((object) => object.kind !== 'Issuer' && object.kind !== 'Certificate')
      .map((object) => {
        if (object.kind === 'Deployment')
          return without.find((other) => other.kind === 'Deployment');
        if (!object.kind.endsWith('WebhookConfiguration')) return object;
        const { annotations: _dropped, ...metadata } = object.metadata;
        return { ...object, metadata };
      });
    const rbacObjects = without.filter((object) =>
      certificateRbac.includes(`${object.kind}/${object.metadata.name}`),
    );
    expect(rbacObjects).toHaveLength(4);
    expect(without.filter((object) => !rbacObjects.includes(object))).toEqual(expected);
    expect(without.some((object) => object.apiVersion.startsWith('cert-manager.io/'))).toBe(false);
  });

  it('runs the manager with --webhook-cert-mode=self-managed and no Secret volume, still PSS restricted', () => {
    const deployment = find(without, 'Deployment', `${prefix}controller-manager`);
    const pod = deployment.spec.template.spec;
    const manager = pod.containers[0];
    expect(manager.args).toEqual([
      '--leader-elect',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=:8443',
      '--webhook-cert-mode=self-managed',
    ]);
    // The certificate is written under /tmp (the default cert dir), an emptyDir.
    expect(manager.volumeMounts).toEqual([{ mountPath: '/tmp', name: 'tmp' }]);
    expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }]);
    expect(restrictedViolations(pod)).toEqual([]);
    // Everything else about the Deployment is config/default's.
    const original = find(withCertManager, 'Deployment', `${prefix}controller-manager`);
    const { args: _a, volumeMounts: _m, ...container } = manager;
    const {
      args: _oa,
      volumeMounts: _om,
      ...originalContainer
    } = original.spec.template.spec.containers[0];
    expect(container).toEqual(originalContainer);
  });

  it('grants exactly the generated rules, on the names the operator uses, to its ServiceAccount', () => {
    const role = find(without, 'Role', `${prefix}self-managed-certs-role`);
    expect(role.metadata.namespace).toBe(namespace);
    expect(role.rules).toEqual(mergePolicyRules(selfManagedCertificateRbac.namespacedRules));
    const clusterRole = find(without, 'ClusterRole', `${prefix}self-managed-certs-role`);
    expect(clusterRole.rules).toEqual(
      clusterRoleFromRules('x', selfManagedCertificateRbac.clusterRules).rules,
    );
    const names = certificateNamesOf(applicationOperator);
    expect(names).toEqual({
      secret: `${prefix}webhook-server-cert`,
      service: `${prefix}webhook-service`,
      mutatingConfiguration: `${prefix}mutating-webhook-configuration`,
      validatingConfiguration: `${prefix}validating-webhook-configuration`,
    });
    // The names in the rules are the rendered objects' names.
    find(without, 'Service', names.service);
    find(without, 'MutatingWebhookConfiguration', names.mutatingConfiguration ?? '');
    find(without, 'ValidatingWebhookConfiguration', names.validatingConfiguration ?? '');
    expect(clusterRole.rules.flatMap((rule: K8sObject) => rule.resourceNames).sort()).toEqual(
      [names.mutatingConfiguration, names.validatingConfiguration].sort(),
    );
    expect(role.rules.flatMap((rule: K8sObject) => rule.resourceNames ?? [])).toEqual([
      names.secret,
    ]);
    for (const [kind, roleKind] of [
      ['RoleBinding', 'Role'],
      ['ClusterRoleBinding', 'ClusterRole'],
    ]) {
      const binding = find(without, kind ?? '', `${prefix}self-managed-certs-rolebinding`);
      expect(binding.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: roleKind,
        name: `${prefix}self-managed-certs-role`,
      });
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: serviceAccount, namespace },
      ]);
    }
  });
});

/** Each overlay rendered once, on first use. */
const renderedOverlays = new Map<string, K8sObject[]>();
function rendered(directory: string): K8sObject[] {
  const objects = renderedOverlays.get(directory) ?? render(directory);
  renderedOverlays.set(directory, objects);
  return objects;
}

/** Checks that the RoleBinding `name` binds the Role `role` to the manager's ServiceAccount, in its namespace. */
function expectBoundToManager(objects: K8sObject[], name: string, role: string): void {
  const binding = find(objects, 'RoleBinding', name);
  expect(binding.metadata.namespace).toBe(namespace);
  expect(binding.roleRef).toEqual({
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'Role',
    name: role,
  });
  expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: serviceAccount, namespace }]);
}

describe('config/sharded (the Application controller across 3 replicas)', () => {
  it('is config/default but for the Deployment', () => {
    const base = rendered('config/default');
    const sharded = rendered('config/sharded');
    const withoutDeployment = (objects: K8sObject[]) =>
      objects.filter((object) => object.kind !== 'Deployment');
    expect(withoutDeployment(sharded)).toEqual(withoutDeployment(base));
  });

  it('runs 3 replicas with --sharding, each named in the ring by its pod name', () => {
    const base = rendered('config/default');
    const sharded = rendered('config/sharded');
    const deployment = find(sharded, 'Deployment', `${prefix}controller-manager`);
    const original = find(base, 'Deployment', `${prefix}controller-manager`);
    expect(deployment.spec.replicas).toBe(3);
    const pod = deployment.spec.template.spec;
    const manager = pod.containers[0];
    // config/default's arguments (--leader-elect among them), then --sharding.
    expect(manager.args).toEqual([...original.spec.template.spec.containers[0].args, '--sharding']);
    expect(manager.args).toContain('--leader-elect');
    expect(manager.env).toEqual([
      {
        name: 'LEADER_ELECTION_IDENTITY',
        valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
      },
    ]);
    expect(restrictedViolations(pod)).toEqual([]);
    // Everything else about the Deployment is config/default's.
    const { args: _a, env: _e, ...container } = manager;
    const { args: _oa, ...originalContainer } = original.spec.template.spec.containers[0];
    expect(container).toEqual(originalContainer);
    expect({ ...pod, containers: [] }).toEqual({ ...original.spec.template.spec, containers: [] });
  });

  it("grants the ring's Leases in the operator namespace only, bound to the ServiceAccount", async () => {
    const sharded = rendered('config/sharded');
    const role = find(sharded, 'Role', `${prefix}sharding-role`);
    expect(role.metadata.namespace).toBe(namespace);
    const kinds = await controllerKindsOf(applicationOperator);
    expect(kinds.map((controller) => controller.sharding)).toEqual([
      { ring: applicationShardingRing },
    ]);
    expect(role.rules).toEqual(
      shardingPermissions(kinds, [...customResources, ...builtInKindResources]).leaseRules,
    );
    expectBoundToManager(sharded, `${prefix}sharding-rolebinding`, `${prefix}sharding-role`);
  });
});

describe('config/samples', () => {
  it('renders the sample Application of the requirements', () => {
    const [sample, ...rest] = render('config/samples');
    expect(rest).toEqual([]);
    expect(sample).toMatchObject({
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'demo', namespace: 'default' },
      spec: { enabled: true, image: 'nginx:1.22' },
    });
  });
});

describe('config/crd', () => {
  it('renders the generated CRD alone (what install-crds applies)', () => {
    expect(render('config/crd').map((object) => object.metadata.name)).toEqual([
      'applications.core.crd.lixueduan.com',
    ]);
  });
});

describe('generated manifests (manifests:check)', () => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await buildBundle();
  }, 60_000);

  /** Runs `ops-manifests --check` on a fresh build against `out`. */
  async function check(out: string) {
    let stdout = '';
    let stderr = '';
    const status = await opsManifests(
      ['--module', join(bundle, 'manifests.js'), '--out', out, '--check'],
      { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    );
    return { status, stdout, stderr };
  }

  it('config/crd/bases, config/rbac/role.yaml, sharding_role.yaml and metrics_*.yaml, config/webhook/manifests.yaml and config/self-managed-certs/role.yaml are what dist/manifests.js generates', async () => {
    const result = await check(operatorRoot);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('ops-manifests: 8 file(s) up to date\n');
    expect(result.status).toBe(0);
  });

  it('fails with a diff when a generated file was edited by hand', async () => {
    const root = await temporaryDirectory('stale');
    await cp(join(operatorRoot, 'config'), join(root, 'config'), { recursive: true });
    const rolePath = join(root, 'config/rbac/role.yaml');
    await writeFile(rolePath, (await readFile(rolePath, 'utf8')).replace('  - watch\n', ''));
    const result = await check(root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('+  - watch');
    expect(result.stderr).toContain('config/rbac/role.yaml differs');
  });

  it('fails when a webhook path in config/webhook/manifests.yaml no longer matches the declaration', async () => {
    const root = await temporaryDirectory('stale-webhook');
    await cp(join(operatorRoot, 'config'), join(root, 'config'), { recursive: true });
    const webhookPath = join(root, 'config/webhook/manifests.yaml');
    await writeFile(
      webhookPath,
      (await readFile(webhookPath, 'utf8')).replace(validatePath, '/validate-elsewhere'),
    );
    const result = await check(root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      `-      path: /validate-elsewhere\n+      path: ${validatePath}\n`,
    );
    expect(result.stderr).toContain('config/webhook/manifests.yaml differs');
  });

  it('is wired as the package lint script (so `pnpm lint` fails CI on stale manifests)', async () => {
    const manifest = JSON.parse(await readFile(join(operatorRoot, 'package.json'), 'utf8'));
    // ops-operator runs ops-manifests on dist/manifests.js (--check: without building).
    expect(manifest.scripts['manifests:check']).toBe('ops-operator manifests --check');
    expect(manifest.scripts.lint).toBe('pnpm run manifests:check');
    expect(manifest.scripts.manifests).toBe('ops-operator manifests');
  });
});

it('uses a kubectl with kustomize', () => {
  expect(execFileSync(kubectlBinary, ['version', '--client'], { encoding: 'utf8' })).toContain(
    'Kustomize Version',
  );
});
