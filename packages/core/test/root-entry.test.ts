// Pins what `@ops/core`'s root entry exports, values and types, so it cannot grow by
// accident: a new export goes to the subpath of its concept unless an operator author needs
// it (then add it here and to src/index.ts on purpose). Also checks that package.json,
// tsup.config.ts and src/ agree on the subpaths.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

const values = [
  'namespaces',
  'nodes',
  'pods',
  'services',
  'endpoints',
  'configMaps',
  'secrets',
  'serviceAccounts',
  'events',
  'persistentVolumeClaims',
  'persistentVolumes',
  'deployments',
  'replicaSets',
  'statefulSets',
  'daemonSets',
  'jobs',
  'cronJobs',
  'ingresses',
  'ingressClasses',
  'networkPolicies',
  'endpointSlices',
  'roles',
  'roleBindings',
  'clusterRoles',
  'clusterRoleBindings',
  'leases',
  'horizontalPodAutoscalers',
  'podDisruptionBudgets',
  'storageClasses',
  'mutatingWebhookConfigurations',
  'validatingWebhookConfigurations',
  'ApiError',
  'Client',
  'ConditionError',
  'ConditionSchema',
  'ConditionsSchema',
  'EmbeddedResource',
  'FinalizerError',
  'IntOrString',
  'Manager',
  'OwnerReferenceError',
  'PreserveUnknownFields',
  'TerminalError',
  'addFinalizer',
  'createOrUpdate',
  'defineCustomResource',
  'findStatusCondition',
  'getControllerOf',
  'hasFinalizer',
  'ignoreNotFound',
  'isAlreadyExists',
  'isConflict',
  'isControlledBy',
  'isForbidden',
  'isInvalid',
  'isNotFound',
  'isStatusConditionFalse',
  'isStatusConditionTrue',
  'loadKubeConfig',
  'objectKind',
  'removeFinalizer',
  'removeStatusCondition',
  'retryOnConflict',
  'runOperator',
  'setCondition',
  'setControllerReference',
  'setOwnerReference',
  'withFinalizer',
];

const types = [
  'Namespace',
  'Node',
  'Pod',
  'Service',
  'Endpoints',
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Event',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Ingress',
  'IngressClass',
  'NetworkPolicy',
  'EndpointSlice',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'Lease',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'StorageClass',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'KindResource',
  'ResourceKind',
  'ApiErrorReason',
  'CallOptions',
  'ClientDeleteOptions',
  'ClientOptions',
  'Condition',
  'ConditionStatus',
  'ConditionUpdate',
  'ControllerBuilder',
  'CustomResource',
  'CustomResourceDefinition',
  'CustomResourceOptions',
  'DeleteOptions',
  'EventRecorder',
  'EventType',
  'FinalizerErrorReason',
  'FinalizerHandlers',
  'KubernetesObject',
  'LabelSelector',
  'ListOptions',
  'ManagerOptions',
  'ObjectKind',
  'ObjectList',
  'ObjectMeta',
  'ObjectOf',
  'ObjectRef',
  'OperationResult',
  'OperatorContext',
  'OperatorDefinition',
  'OwnerReference',
  'PatchOptions',
  'PatchType',
  'PolicyRule',
  'Predicate',
  'PrinterColumn',
  'Reader',
  'ReconcileContext',
  'Reconciler',
  'Request',
  'Result',
  'Status',
  'StatusCause',
  'StatusDetails',
  'StatusWriter',
  // The TypeBox types of the schema helpers above, so an operator's CRD schema can be named.
  'TEmbeddedResource',
  'TIntOrString',
  'TUnknownObject',
  'WriteOptions',
  'Writer',
];

/** Every name src/index.ts exports, values and types, as the TypeScript checker sees them. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const source = program.getSourceFile(entry);
  const symbol = source && program.getTypeChecker().getSymbolAtLocation(source);
  if (!symbol) throw new Error(`cannot read the exports of ${entry}`);
  return program
    .getTypeChecker()
    .getExportsOfModule(symbol)
    .map((exported) => exported.name)
    .sort();
}

describe("@ops/core's root entry", () => {
  it('exports exactly the operator author values', () => {
    expect(Object.keys(root).sort()).toEqual([...values].sort());
  });

  it('exports exactly the operator author types besides them', () => {
    expect(exportedNames(path('../src/index.ts'))).toEqual([...values, ...types].sort());
  }, 30_000);

  it('has each subpath in package.json (types first when published), tsup.config.ts and src/', () => {
    const manifest = JSON.parse(readFileSync(path('../package.json'), 'utf8'));
    const tsup = readFileSync(path('../tsup.config.ts'), 'utf8');
    const subpaths = Object.keys(manifest.exports).filter(
      (key) => key !== '.' && key !== './package.json',
    );
    expect(subpaths.length).toBeGreaterThan(0);
    for (const subpath of subpaths) {
      const name = subpath.slice(2);
      expect(existsSync(path(`../src/${name}/index.ts`)), `src/${name}/index.ts`).toBe(true);
      expect(tsup, `tsup.config.ts lists ${name}`).toContain(`'${name}'`);
      expect(Object.keys(manifest.publishConfig.exports[subpath])[0]).toBe('types');
      expect(manifest.publishConfig.exports[subpath].default).toBe(`./dist/${name}/index.js`);
    }
  });
});
