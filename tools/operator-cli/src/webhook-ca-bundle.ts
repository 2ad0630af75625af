/**
 * Making the webhook configurations (and the CRDs' conversion webhooks) trust a CA:
 * `caBundle` on every webhook, in rendered objects or in the cluster.
 */
import { type K8sObject, kubectl } from './kubectl.js';
import type { OperatorWebhooks } from './operator-project.js';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/**
 * `objects` with `caBundle` set on every webhook of the webhook configurations among them, and
 * on the conversion webhook of each CustomResourceDefinition whose conversion strategy is
 * `Webhook`; other objects as they are.
 */
export function withCaBundle(objects: readonly K8sObject[], caCert: string): K8sObject[] {
  return objects.map((object) => {
    if (isConversionCrd(object)) {
      const { webhook } = object.spec.conversion;
      return {
        ...object,
        spec: {
          ...object.spec,
          conversion: {
            ...object.spec.conversion,
            webhook: {
              ...webhook,
              clientConfig: { ...webhook?.clientConfig, caBundle: base64(caCert) },
            },
          },
        },
      };
    }
    if (
      object.kind !== 'MutatingWebhookConfiguration' &&
      object.kind !== 'ValidatingWebhookConfiguration'
    ) {
      return object;
    }
    return {
      ...object,
      webhooks: (object.webhooks ?? []).map((webhook: K8sObject) => ({
        ...webhook,
        clientConfig: { ...webhook.clientConfig, caBundle: base64(caCert) },
      })),
    };
  });
}

/**
 * Sets `caBundle` to `caCert` (PEM) on every webhook of the operator's webhook
 * configurations in the current cluster (a JSON patch per configuration), and on the
 * conversion webhook of each of its CRDs (`webhooks.conversionCrds`) whose conversion
 * strategy in the cluster is `Webhook` (a merge patch per CRD; one installed from an older
 * version without conversion is left as it is).
 *
 * @returns what it patched: `<kind>/<name>` of each configuration and CRD, in that order.
 * @throws {OperatorCliError} when kubectl fails, e.g. a configuration or CRD is not in the
 * cluster.
 */
export async function patchCaBundle(
  caCert: string,
  webhooks: OperatorWebhooks,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const patched: string[] = [];
  const targets: [string, string | undefined][] = [
    ['mutatingwebhookconfiguration', webhooks.mutatingConfiguration],
    ['validatingwebhookconfiguration', webhooks.validatingConfiguration],
  ];
  for (const [kind, name] of targets) {
    if (name === undefined) continue;
    const object = JSON.parse(
      await kubectl(['get', `${kind}/${name}`, '-o', 'json'], { capture: true, env }),
    ) as K8sObject;
    const patch = (Array.isArray(object.webhooks) ? object.webhooks : []).map(
      (_webhook: unknown, index: number) => ({
        op: 'add',
        path: `/webhooks/${index}/clientConfig/caBundle`,
        value: base64(caCert),
      }),
    );
    if (patch.length === 0) continue;
    await kubectl(['patch', `${kind}/${name}`, '--type=json', '-p', JSON.stringify(patch)], {
      capture: true,
      env,
    });
    patched.push(`${kind}/${name}`);
  }
  for (const name of webhooks.conversionCrds) {
    const target = `customresourcedefinition/${name}`;
    const crd = JSON.parse(
      await kubectl(['get', target, '-o', 'json'], { capture: true, env }),
    ) as K8sObject;
    if (!isConversionCrd(crd)) continue;
    const patch = {
      spec: { conversion: { webhook: { clientConfig: { caBundle: base64(caCert) } } } },
    };
    await kubectl(['patch', target, '--type=merge', '-p', JSON.stringify(patch)], {
      capture: true,
      env,
    });
    patched.push(target);
  }
  return patched;
}

/** Whether `object` is a CustomResourceDefinition whose conversion calls a webhook. */
export function isConversionCrd(object: K8sObject): boolean {
  return (
    object.kind === 'CustomResourceDefinition' && object.spec?.conversion?.strategy === 'Webhook'
  );
}
