import { type ChildName, childNameProblems } from '@ops/core/meta';

/**
 * The names and labels of what a Balancer owns, in one place: the reconciler creates them, the
 * tests and the demo find them by these names.
 */

/** The label on the proxy Pods (and every child) naming their Balancer: the front Service selects it. */
export const balancerNameLabel = 'balancer.exposer.hliangzhao.io/balancer-name';
/** The label on a backend Service naming its backend. */
export const backendNameLabel = 'balancer.exposer.hliangzhao.io/backend-name';
/** The Pod-template annotation holding the SHA-256 of nginx.conf: a new config rolls the Pods. */
export const configHashAnnotation = 'balancer.exposer.hliangzhao.io/config-hash';
/** The key of the ConfigMap that holds the nginx configuration. */
export const nginxConfKey = 'nginx.conf';

/** The front Service: the Balancer's own name. */
export const frontServiceName = (balancer: string): string => balancer;
/** The nginx proxy Deployment: `<balancer>proxy`. */
export const proxyDeploymentName = (balancer: string): string => `${balancer}proxy`;
/** The ConfigMap holding nginx.conf: `<balancer>proxy-config`. */
export const proxyConfigMapName = (balancer: string): string => `${balancer}proxy-config`;
/** The Service of one backend: `<balancer>-<backend>-backend`. */
export const backendServiceName = (balancer: string, backend: string): string =>
  `${balancer}-${backend}-backend`;

/**
 * What a Balancer's name becomes, each of which Kubernetes must accept for the reconciler to
 * make it: the front Service (a DNS label, 63 characters), the proxy Deployment and its
 * ConfigMap, and the label that the front Service selects the proxy Pods by (63).
 */
export const balancerChildNames: readonly ChildName[] = [
  { what: 'front Service name', rule: 'dns1123-label' },
  { what: 'proxy Deployment name', rule: 'dns1123-subdomain', suffix: 'proxy' },
  { what: 'proxy ConfigMap name', rule: 'dns1123-subdomain', suffix: 'proxy-config' },
  { what: `label ${balancerNameLabel}`, rule: 'label-value' },
];

/**
 * Why the operator cannot serve a Balancer of this name and these backend names (the children
 * it would make would be refused), one message per problem, empty when all fit. Kubernetes
 * accepts Balancer names up to 253 characters, but its front Service and proxy label allow 63,
 * and each backend Service `<name>-<backend>-backend` must be a DNS label too. The reconciler
 * reports these on the Balancer (Ready=False, reason `InvalidName`, a Warning event) and makes
 * nothing, rather than retrying a create the API server will always refuse.
 */
export function balancerNameProblems(name: string, backends: readonly string[]): string[] {
  const owner = { kind: 'Balancer', name };
  return [
    ...childNameProblems(owner, balancerChildNames),
    ...backends.flatMap((backend) =>
      childNameProblems(owner, [
        {
          what: `Service name of backend "${backend}"`,
          rule: 'dns1123-label',
          suffix: `-${backend}-backend`,
        },
      ]),
    ),
  ];
}
