import { configMap } from '@ops/envtest';
import type { Session } from '../scenario.js';

/**
 * Creates ConfigMaps `name -> labels` in `namespace` without recording the requests: the
 * objects a list, selector or table scenario reads.
 *
 * @throws {Error} quoting the server's answer when one is refused.
 */
export async function seedConfigMaps(
  session: Session,
  namespace: string,
  objects: Record<string, Record<string, string>>,
): Promise<void> {
  for (const [name, labels] of Object.entries(objects)) {
    const answer = await session.probe({
      method: 'POST',
      path: `/api/v1/namespaces/${namespace}/configmaps`,
      body: configMap(namespace, name, { key: name }, labels),
    });
    if (answer.status !== 201)
      throw new Error(
        `could not seed ConfigMap ${namespace}/${name}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
  }
}
