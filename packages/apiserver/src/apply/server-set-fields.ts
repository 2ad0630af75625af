import { isJsonObject } from '@ops/api';
/**
 * Fields a built-in kind's create sets on the server's side after kube-apiserver's field
 * manager has recorded the writer's fields (the strategies' `PrepareForCreate`, the Service
 * IP allocator), so no manager owns them: a Namespace's `spec.finalizers`, a Service's
 * cluster IPs (`clusterIP` stays the writer's when it asked for a headless `None`) and IP
 * families.
 */
import { FieldSet } from './field-set.js';

type Paths = (object: Record<string, unknown>) => string[][];

const allocatedIPs: Paths = (object) => {
  const spec = isJsonObject(object.spec) ? object.spec : {};
  const paths = [
    ['f:spec', 'f:clusterIPs'],
    ['f:spec', 'f:ipFamilies'],
    ['f:spec', 'f:ipFamilyPolicy'],
  ];
  if (spec.clusterIP !== 'None') paths.push(['f:spec', 'f:clusterIP']);
  return paths;
};

const serverSet: Readonly<Record<string, Paths>> = {
  'v1/Namespace': () => [['f:spec', 'f:finalizers']],
  'v1/Service': allocatedIPs,
};

/**
 * The paths the server set on the create of `object` (an `apiVersion` `kind`); empty for
 * other kinds.
 */
export function serverSetFieldsOf(
  apiVersion: string,
  kind: string,
  object: Record<string, unknown>,
): FieldSet {
  return FieldSet.of(...(serverSet[`${apiVersion}/${kind}`]?.(object) ?? []));
}
