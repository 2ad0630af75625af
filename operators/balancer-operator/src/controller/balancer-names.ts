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
