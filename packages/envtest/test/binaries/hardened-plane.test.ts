import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dryRunCreatePod,
  Environment,
  kubeRequest,
  podSecurityEnforceLabel,
  renderOperator,
  type ServiceAccountIdentity,
} from '../../src/index.js';

// Runs with pnpm test:binaries, on both real planes (etcd + kube-apiserver, and the kwok
// cluster): kube-apiserver hardened as a production cluster is (hardenedApiServerArgs),
// judging the four operators as they are rendered from their config/default.
const operatorsRoot = fileURLToPath(new URL('../../../../operators/', import.meta.url));
const operators = [
  'application-operator',
  'balancer-operator',
  'myjob-operator',
  'sidecar-operator',
] as const;
const configOf = (operator: string) => join(operatorsRoot, operator, 'config', 'default');

/** A Pod that meets no Pod Security Standard above `privileged`'s. */
function privilegedPod(namespace: string, name: string): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      hostNetwork: true,
      containers: [{ name: 'main', image: 'busybox:1.36', securityContext: { privileged: true } }],
    },
  } as KubernetesObject;
}

describe.each(['binaries', 'cluster'] as const)('the %s plane', (plane) => {
  let env: Environment;
  const identities = new Map<string, ServiceAccountIdentity>();
  const renderedInstalls = new Map<string, KubernetesObject[]>();

  beforeAll(async () => {
    env = await Environment.start({
      controlPlane: plane,
      crdDirectoryPaths: operators.map((operator) =>
        join(operatorsRoot, operator, 'config', 'crd', 'bases'),
      ),
    });
    // Each operator's ServiceAccount under its rendered RBAC, in its namespace labelled
    // `restricted`; operatorServiceAccount also has kube-apiserver admit its manager Pod there.
    for (const operator of operators) {
      const { identity, rendered } = await env.operatorServiceAccount(configOf(operator));
      identities.set(operator, identity);
      renderedInstalls.set(operator, rendered);
    }
  }, 240_000);
  afterAll(async () => {
    await env?.stop();
  });

  it('authorizes a kubelet for its own Node through the Node authorizer (RBAC grants nodes nothing)', async () => {
    const review = (node: string) =>
      kubeRequest(env.kubeConfig, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: 'system:node:node-a',
          groups: ['system:nodes', 'system:authenticated'],
          resourceAttributes: {
            verb: 'update',
            resource: 'nodes',
            subresource: 'status',
            name: node,
          },
        },
      });
    const own = await review('node-a');
    expect(own.status).toBe(201);
    expect((own.body as { status: { allowed: boolean } }).status.allowed).toBe(true);
  });

  describe('Pod Security on the hardened kube-apiserver', () => {
    it.each(operators)(
      "admits %s's manager Pod, from its rendered Deployment, in its namespace enforcing restricted",
      async (operator) => {
        const { managerPod, serviceAccount } = await renderOperator(configOf(operator));
        const namespace = await kubeRequest(
          env.kubeConfig,
          'GET',
          `/api/v1/namespaces/${serviceAccount.namespace}`,
        );
        expect(
          (namespace.body as { metadata: { labels: Record<string, string> } }).metadata.labels[
            podSecurityEnforceLabel
          ],
        ).toBe('restricted');
        const admitted = await dryRunCreatePod(env.kubeConfig, managerPod);
        expect(admitted.metadata?.namespace).toBe(serviceAccount.namespace);
        expect(admitted.metadata?.uid).toBeTruthy();
        // A dry run stores nothing.
        const stored = await kubeRequest(
          env.kubeConfig,
          'GET',
          `/api/v1/namespaces/${serviceAccount.namespace}/pods/${managerPod.metadata?.name}`,
        );
        expect(stored.status).toBe(404);
      },
    );

    it('refuses a Pod that breaks the restricted standard there, and admits it where nothing is enforced', async () => {
      const namespace = identities.get('myjob-operator')?.namespace ?? '';
      await expect(
        dryRunCreatePod(env.kubeConfig, privilegedPod(namespace, 'rogue')),
      ).rejects.toThrow(
        /is not admitted \(HTTP 403\): .*violates PodSecurity "restricted:latest": .*privileged/,
      );
      const unlabelled = await dryRunCreatePod(env.kubeConfig, privilegedPod('default', 'rogue'));
      expect(unlabelled.metadata?.namespace).toBe('default');
    });
  });

  describe('OwnerReferencesPermissionEnforcement on the hardened kube-apiserver', () => {
    /** The rendered install of `operator` with its manager ClusterRole's rules changed by `edit`. */
    function withRules(
      operator: string,
      prefix: string,
      edit: (rules: Array<{ resources?: string[] }>) => Array<{ resources?: string[] }>,
    ): KubernetesObject[] {
      return (renderedInstalls.get(operator) ?? []).map((object) => {
        const copy = structuredClone(object) as KubernetesObject & {
          rules?: Array<{ resources?: string[] }>;
          roleRef?: { name: string };
          subjects?: Array<{ name: string }>;
        };
        if (!['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(copy.kind ?? ''))
          return copy;
        copy.metadata = { ...copy.metadata, name: `${prefix}${copy.metadata?.name}` };
        if (copy.kind === 'ClusterRole' && copy.metadata.name?.endsWith('-manager-role'))
          copy.rules = edit(copy.rules ?? []);
        if (copy.roleRef) copy.roleRef.name = `${prefix}${copy.roleRef.name}`;
        for (const subject of copy.subjects ?? []) subject.name = `${prefix}${subject.name}`;
        return copy;
      });
    }

    // Each operator that owns what it creates, and one object it creates with a controller
    // owner reference to its custom resource, as its reconciler writes it.
    const cases = [
      {
        operator: 'myjob-operator',
        // v1, the storage version: no call to the conversion webhook (not served here).
        owner: { apiVersion: 'myjob.github.com/v1', kind: 'MyJob', plural: 'myjobs' },
        spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] } } },
        child: (namespace: string): KubernetesObject =>
          ({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'owned', namespace },
            spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] },
          }) as KubernetesObject,
        path: (namespace: string) => `/api/v1/namespaces/${namespace}/pods`,
      },
      {
        operator: 'balancer-operator',
        owner: {
          apiVersion: 'exposer.hliangzhao.io/v1alpha1',
          kind: 'Balancer',
          plural: 'balancers',
        },
        spec: {
          ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
          selector: { app: 'test' },
          backends: [{ name: 'v1', weight: 1, selector: { version: 'v1' } }],
        },
        child: (namespace: string): KubernetesObject =>
          ({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'owned', namespace },
            data: { 'nginx.conf': '' },
          }) as KubernetesObject,
        path: (namespace: string) => `/api/v1/namespaces/${namespace}/configmaps`,
      },
    ];

    it.each(cases)(
      '$operator: blockOwnerDeletion is refused with 403 without the generated finalizers rule and accepted with it',
      async ({ operator, owner, spec, child, path }) => {
        const namespace = 'default';
        const created = await kubeRequest(
          env.kubeConfig,
          'POST',
          `/apis/${owner.apiVersion}/namespaces/${namespace}/${owner.plural}`,
          {
            apiVersion: owner.apiVersion,
            kind: owner.kind,
            metadata: { name: `${operator}-owner`, namespace },
            spec,
          },
        );
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const uid = (created.body as { metadata: { uid: string } }).metadata.uid;
        const finalizers = `${owner.plural}/finalizers`;
        const generated = identities.get(operator);
        if (generated === undefined) throw new Error(`no identity for ${operator}`);
        // The generated ClusterRole grants it: that is what this test relies on.
        const role = (renderedInstalls.get(operator) ?? []).find(
          (object) =>
            object.kind === 'ClusterRole' && object.metadata?.name?.endsWith('-manager-role'),
        ) as KubernetesObject & { rules: Array<{ resources?: string[]; verbs: string[] }> };
        expect(role.rules).toContainEqual(
          expect.objectContaining({ resources: [finalizers], verbs: ['update'] }),
        );
        // The same install with that one rule taken out, bound to a second ServiceAccount.
        const prefix = 'no-finalizers-';
        const without = await env.serviceAccount({
          namespace: generated.namespace,
          name: `${prefix}${generated.name}`,
          rbac: withRules(operator, prefix, (rules) =>
            rules.filter((rule) => !(rule.resources ?? []).includes(finalizers)),
          ),
        });
        const body = child(namespace);
        body.metadata = {
          ...body.metadata,
          ownerReferences: [
            {
              apiVersion: owner.apiVersion,
              kind: owner.kind,
              name: `${operator}-owner`,
              uid,
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        };
        const refused = await kubeRequest(
          without.kubeConfig,
          'POST',
          `${path(namespace)}?dryRun=All`,
          body,
        );
        expect(refused.status).toBe(403);
        expect((refused.body as { message: string }).message).toContain(
          "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on",
        );
        const accepted = await kubeRequest(
          generated.kubeConfig,
          'POST',
          `${path(namespace)}?dryRun=All`,
          body,
        );
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
      },
    );
  });
});
