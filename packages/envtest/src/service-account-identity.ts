import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/core';
import YAML from 'yaml';
import { applyObjects } from './apply-objects.js';
import { eventually } from './eventually.js';
import { kubeRequest } from './kube-request.js';

/** Options of {@link Environment.serviceAccount}. */
export interface ServiceAccountOptions {
  /** The ServiceAccount's namespace; created when missing. */
  namespace: string;
  /** The ServiceAccount's name; created when missing. */
  name: string;
  /**
   * The operator's RBAC as it is deployed: its rendered manifests (`kubectl kustomize
   * config/default`, or the files of config/rbac once kustomize set their namespace and name
   * prefix). Every ClusterRole, ClusterRoleBinding, Role and RoleBinding among them is applied
   * (other kinds are ignored, so a whole rendered install may be passed), and at least one
   * binding must name this ServiceAccount. Empty or absent: the account gets no rights.
   */
  rbac?: readonly KubernetesObject[];
  /** Lifetime of the token in seconds (default 86400; kube-apiserver's minimum is 600). */
  expirationSeconds?: number;
}

/** A ServiceAccount the tests act as, with a token the API server issued for it. */
export interface ServiceAccountIdentity {
  namespace: string;
  name: string;
  /** The user name the API server authenticates the token as: `system:serviceaccount:<ns>:<name>`. */
  username: string;
  /** The bearer token. */
  token: string;
  /** A kubeconfig (YAML) for the same cluster, as this account, its namespace as default. */
  kubeconfig: string;
  /** The same kubeconfig in a file (for `--kubeconfig` of an operator or kubectl), mode 0600. */
  kubeconfigPath: string;
  /** The same kubeconfig as a client-node KubeConfig (for a Manager or Client). */
  kubeConfig: KubeConfig;
  /** The RBAC objects applied, as the API server stored them. */
  rbac: KubernetesObject[];
}

/** How a control plane issues a token for a ServiceAccount. */
export type IssueServiceAccountToken = (
  namespace: string,
  name: string,
  expirationSeconds: number,
) => Promise<string>;

const rbacKinds = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
const bindingKinds = new Set(['ClusterRoleBinding', 'RoleBinding']);
const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}
interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs?: string[];
  nonResourceURLs?: string[];
}
type RbacObject = KubernetesObject & {
  subjects?: Subject[];
  roleRef?: { kind?: string; name?: string };
  rules?: PolicyRule[];
};

/**
 * Issues a token through the TokenRequest API (`POST
 * /api/v1/namespaces/<ns>/serviceaccounts/<name>/token`), as kubelet does for a Pod.
 *
 * @throws {Error} quoting the API server's answer when it issues none.
 */
export function tokenRequestIssuer(admin: KubeConfig): IssueServiceAccountToken {
  return async (namespace, name, expirationSeconds) => {
    const response = await kubeRequest(
      admin,
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds },
      },
    );
    const token = (response.body as { status?: { token?: string } }).status?.token;
    if (response.status !== 201 && response.status !== 200)
      throw new Error(
        `the TokenRequest API issued no token for ServiceAccount ${namespace}/${name} (HTTP ${response.status}): ${JSON.stringify(response.body)}`,
      );
    if (!token)
      throw new Error(
        `the TokenRequest API answered without status.token for ServiceAccount ${namespace}/${name}: ${JSON.stringify(response.body)}`,
      );
    return token;
  };
}

/**
 * Makes `namespace/name` an identity to run an operator as, the way it runs in a cluster:
 * creates the namespace and the ServiceAccount when missing, applies the RBAC objects of
 * `options.rbac` as given, has `issueToken` issue a token, writes a kubeconfig with it into
 * `directory`, and resolves once the API server's authorizer grants that token each rule of
 * each role bound to the account (a SelfSubjectAccessReview for the first verb and resource
 * of every rule: kube-apiserver's RBAC authorizer reads roles and bindings from an informer,
 * so a new binding takes effect a moment after it is stored).
 *
 * @throws {Error} when a name is not a valid Kubernetes name, no binding of `options.rbac`
 *   names the account (the operator would run with no rights: render the manifests so their
 *   namespace and name prefix match), a bound role is not among the objects, the API server
 *   refuses an object, or the rules are not granted within `timeoutMs`.
 */
export async function createServiceAccountIdentity(
  admin: KubeConfig,
  adminKubeconfig: string,
  options: ServiceAccountOptions,
  dependencies: {
    issueToken: IssueServiceAccountToken;
    /** Where the kubeconfig file is written. */
    directory: string;
    timeoutMs: number;
  },
): Promise<ServiceAccountIdentity> {
  const { issueToken, directory, timeoutMs } = dependencies;
  const { namespace, name } = options;
  if (!dnsLabel.test(namespace))
    throw new Error(
      `ServiceAccount namespace ${JSON.stringify(namespace)} is not a valid namespace name (a DNS label: lower-case letters, digits and '-')`,
    );
  if (!dnsSubdomain.test(name))
    throw new Error(
      `ServiceAccount name ${JSON.stringify(name)} is not a valid name (a DNS subdomain: lower-case letters, digits, '-' and '.')`,
    );
  const rbac = (options.rbac ?? []).filter((object) =>
    rbacKinds.has(object.kind ?? ''),
  ) as RbacObject[];
  const bindings = rbac.filter(
    (object) =>
      bindingKinds.has(object.kind ?? '') &&
      (object.subjects ?? []).some(
        (subject) =>
          subject.kind === 'ServiceAccount' &&
          subject.name === name &&
          (subject.namespace ?? object.metadata?.namespace) === namespace,
      ),
  );
  if (rbac.length > 0 && bindings.length === 0) {
    const named = rbac
      .filter((object) => bindingKinds.has(object.kind ?? ''))
      .flatMap((object) => object.subjects ?? [])
      .map((subject) => `${subject.kind} ${subject.namespace ?? ''}/${subject.name}`);
    throw new Error(
      `no binding among the RBAC objects names ServiceAccount ${namespace}/${name} (they name: ${named.join(', ') || 'nobody'}); pass the manifests as rendered (kubectl kustomize sets the namespace and name prefix), or the ServiceAccount they bind`,
    );
  }
  const grants = bindings.map((binding) => {
    const roleKind = binding.roleRef?.kind;
    const roleName = binding.roleRef?.name;
    const role = rbac.find(
      (object) =>
        object.kind === roleKind &&
        object.metadata?.name === roleName &&
        (roleKind === 'ClusterRole' || object.metadata?.namespace === binding.metadata?.namespace),
    );
    if (role === undefined)
      throw new Error(
        `${binding.kind} ${binding.metadata?.name} binds ${roleKind} ${roleName}, which is not among the RBAC objects; pass the rendered role too`,
      );
    return {
      namespace: binding.kind === 'RoleBinding' ? binding.metadata?.namespace : undefined,
      rules: role.rules ?? [],
    };
  });

  const namespaces = new Set([
    namespace,
    ...rbac.flatMap((object) => (object.metadata?.namespace ? [object.metadata.namespace] : [])),
  ]);
  for (const each of namespaces) {
    const created = await kubeRequest(admin, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: each },
    });
    if (created.status >= 300 && created.status !== 409)
      throw new Error(`could not create namespace ${each}: ${JSON.stringify(created.body)}`);
  }
  const account = await kubeRequest(
    admin,
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts`,
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name },
    },
  );
  if (account.status >= 300 && account.status !== 409)
    throw new Error(
      `could not create ServiceAccount ${namespace}/${name}: ${JSON.stringify(account.body)}`,
    );
  const applied = await applyObjects(admin, rbac);
  const token = await issueToken(namespace, name, options.expirationSeconds ?? 86_400);
  const kubeconfig = kubeconfigFor(adminKubeconfig, `${namespace}-${name}`, token, namespace);
  const kubeconfigPath = join(directory, `serviceaccount-${namespace}-${name}.kubeconfig`);
  await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
  const identity = new KubeConfig();
  identity.loadFromString(kubeconfig);
  for (const grant of grants) {
    for (const rule of grant.rules) {
      const attributes = accessReviewAttributes(rule, grant.namespace);
      await eventually(
        async () => {
          const review = await kubeRequest(
            identity,
            'POST',
            '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
            {
              apiVersion: 'authorization.k8s.io/v1',
              kind: 'SelfSubjectAccessReview',
              spec: attributes,
            },
          );
          const status = (review.body as { status?: { allowed?: boolean } }).status;
          if (status?.allowed !== true)
            throw new Error(`not allowed yet: ${JSON.stringify(review.body)}`);
          return true;
        },
        {
          timeoutMs,
          description: `ServiceAccount ${namespace}/${name} granted ${JSON.stringify(attributes)}`,
        },
      );
    }
  }
  return {
    namespace,
    name,
    username: `system:serviceaccount:${namespace}:${name}`,
    token,
    kubeconfig,
    kubeconfigPath,
    kubeConfig: identity,
    rbac: applied,
  };
}

/** The SelfSubjectAccessReview spec that asks for the first verb and resource of `rule`. */
function accessReviewAttributes(
  rule: PolicyRule,
  namespace: string | undefined,
): Record<string, unknown> {
  const verb = rule.verbs?.[0] ?? '';
  if (rule.nonResourceURLs?.length)
    return { nonResourceAttributes: { path: rule.nonResourceURLs[0], verb } };
  const [resource = '', subresource] = (rule.resources?.[0] ?? '').split('/');
  return {
    resourceAttributes: {
      ...(namespace ? { namespace } : {}),
      verb,
      group: rule.apiGroups?.[0] ?? '',
      resource,
      ...(subresource ? { subresource } : {}),
      ...(rule.resourceNames?.[0] ? { name: rule.resourceNames[0] } : {}),
    },
  };
}

/** `adminKubeconfig` with its users replaced by one authenticating with `token`. */
function kubeconfigFor(
  adminKubeconfig: string,
  user: string,
  token: string,
  namespace: string,
): string {
  const parsed = YAML.parse(adminKubeconfig) as {
    users: Array<{ name: string; user: Record<string, unknown> }>;
    contexts: Array<{ context: Record<string, unknown> }>;
  };
  parsed.users = [{ name: user, user: { token } }];
  for (const context of parsed.contexts) {
    context.context.user = user;
    context.context.namespace = namespace;
  }
  return YAML.stringify(parsed);
}
