import type { K8sObject } from './kubectl.js';

/** The flag with which an operator makes its own webhook certificates (`@ops/core`'s runOperator). */
export const selfManagedCertificatesFlag = '--webhook-cert-mode=self-managed';

/**
 * Whether rendered kustomize `objects` run the operator with self-managed webhook
 * certificates: a Deployment's container has {@link selfManagedCertificatesFlag} in its args
 * (as two args or one). Such an operator keeps its CA and serving certificate in a Secret of
 * its own and injects the CA bundle itself, so nothing must make a Secret or set a caBundle
 * for it.
 */
export function usesSelfManagedCertificates(objects: readonly K8sObject[]): boolean {
  return objects.some(
    (object) =>
      object?.kind === 'Deployment' &&
      (Array.isArray(object.spec?.template?.spec?.containers)
        ? (object.spec.template.spec.containers as unknown[])
        : []
      ).some((container) => {
        if (typeof container !== 'object' || container === null) return false;
        const { args: given } = container as { args?: unknown };
        const args: unknown[] = Array.isArray(given) ? given : [];
        return args.some(
          (arg, index) =>
            arg === selfManagedCertificatesFlag ||
            (arg === '--webhook-cert-mode' && args[index + 1] === 'self-managed'),
        );
      }),
  );
}
