import type { CustomResourceDefinitionObject, KubernetesObject } from '@ops/api';
import {
  formatRfc3339Seconds,
  isJsonObject,
  jsonEqual,
  LabelSelectorError,
  labelSelectorFromObject,
} from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { canonicalJson } from '../../json/json.js';
import { configMapKeyErrors, secretKeyErrors } from '../../limits/data-keys.js';
import { configMapSizeErrors, secretSizeErrors } from '../../limits/data-size.js';
import { crdValidationRuleErrors, validateStructuralSchema } from '../../schema/index.js';

/** What strategies may ask of the server. */
export interface StrategyContext {
  allocateClusterIP(): string;
}

/**
 * Kind-specific behaviour, as kube-apiserver's registry strategies have it: defaults filled
 * on create and update, validation, and whether `status` may be set on create.
 */
export interface Strategy {
  prepareForCreate?(object: Obj, context: StrategyContext): void;
  /** `subresource` is the one written (`status`, `scale`), or '' for the object itself. */
  prepareForUpdate?(object: Obj, old: Obj, subresource: string): void;
  /**
   * Runs on create after admission, once `metadata.uid` is set and before validation (where
   * kube-apiserver's Job strategy generates a Job's selector from its uid).
   */
  completeCreate?(object: Obj): void;
  validate?(object: Obj, old: Obj | undefined): FieldError[];
  /** Create keeps the given status (Nodes, Namespaces, Events...); otherwise it is reset. */
  keepStatusOnCreate?: boolean;
  /**
   * A status update may change `metadata.annotations` too, as kube's
   * `deploymentStatusStrategy` lets it: the deployment controller writes its revision
   * annotation that way, so that it does not bump the Deployment's generation.
   */
  statusKeepsAnnotations?: boolean;
}

// Objects are plain JSON: strategies navigate them loosely and check what they read.
// biome-ignore lint/suspicious/noExplicitAny: strategies work on untyped JSON by design
type Obj = KubernetesObject & Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
type Json = Record<string, any>;

function defaultPodSpec(spec: Json): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  if (spec.serviceAccountName === undefined && spec.serviceAccount === undefined)
    spec.serviceAccountName = 'default';
  for (const list of ['initContainers', 'containers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      if (!isJsonObject<Json>(container)) continue;
      const image = typeof container.image === 'string' ? container.image : '';
      const tagged = /:[^/]+$/.test(image.split('@')[0] ?? '') && !image.endsWith(':latest');
      container.imagePullPolicy ??= image.includes('@') || tagged ? 'IfNotPresent' : 'Always';
      container.terminationMessagePath ??= '/dev/termination-log';
      container.terminationMessagePolicy ??= 'File';
      container.resources ??= {};
      if (Array.isArray(container.ports)) {
        for (const port of container.ports) if (isJsonObject<Json>(port)) port.protocol ??= 'TCP';
      }
    }
  }
}

function validatePodSpec(spec: unknown, path: string): FieldError[] {
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: path }];
  const errors: FieldError[] = [];
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    errors.push({ type: 'FieldValueRequired', field: `${path}.containers` });
    return errors;
  }
  const names = new Set<string>();
  containers.forEach((container: unknown, index: number) => {
    const at = `${path}.containers[${index}]`;
    if (!isJsonObject<Json>(container)) {
      errors.push({
        type: 'FieldValueInvalid',
        field: at,
        value: container,
        detail: 'must be an object',
      });
      return;
    }
    if (typeof container.name !== 'string' || container.name === '') {
      errors.push({ type: 'FieldValueRequired', field: `${at}.name` });
    } else if (names.has(container.name)) {
      errors.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: container.name });
    } else {
      names.add(container.name);
    }
    if (typeof container.image !== 'string' || container.image.trim() === '') {
      errors.push({ type: 'FieldValueRequired', field: `${at}.image` });
    }
  });
  const policy = spec.restartPolicy;
  if (policy !== undefined && !['Always', 'OnFailure', 'Never'].includes(policy)) {
    errors.push({
      type: 'FieldValueNotSupported',
      field: `${path}.restartPolicy`,
      value: policy,
      detail: 'supported values: "Always", "OnFailure", "Never"',
    });
  }
  return errors;
}

function validateSelectorMatchesTemplate(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = object.spec;
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const errors: FieldError[] = [];
  const labels =
    isJsonObject<Json>(spec.template) && isJsonObject<Json>(spec.template.metadata)
      ? spec.template.metadata.labels
      : undefined;
  if (!isJsonObject<Json>(spec.selector)) {
    errors.push({ type: 'FieldValueRequired', field: 'spec.selector' });
  } else {
    try {
      const selector = labelSelectorFromObject(spec.selector);
      if (selector.isEverything()) {
        errors.push({
          type: 'FieldValueInvalid',
          field: 'spec.selector',
          value: spec.selector,
          detail: 'empty selector is invalid for deployment',
        });
      } else if (!selector.matches(labels as Record<string, string> | undefined)) {
        errors.push({
          type: 'FieldValueInvalid',
          field: 'spec.template.metadata.labels',
          value: labels ?? {},
          detail: '`selector` does not match template `labels`',
        });
      }
    } catch (error) {
      if (!LabelSelectorError.isInstance(error)) throw error;
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.selector',
        value: spec.selector,
        detail: error.message,
      });
    }
    if (
      old !== undefined &&
      isJsonObject<Json>(old.spec) &&
      // Absent and null are the same (no selector), as in the typed object kube compares.
      !jsonEqual(old.spec.selector ?? null, spec.selector ?? null)
    ) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.selector',
        value: spec.selector,
        detail: 'field is immutable',
      });
    }
  }
  if (typeof spec.replicas === 'number' && spec.replicas < 0) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.replicas',
      value: spec.replicas,
      detail: 'must be greater than or equal to 0',
    });
  }
  errors.push(
    ...validatePodSpec(
      isJsonObject<Json>(spec.template) ? spec.template.spec : undefined,
      'spec.template.spec',
    ),
  );
  return errors;
}

const workload: Strategy = {
  prepareForCreate(object) {
    const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
    object.spec = spec;
    spec.replicas ??= 1;
    // ReplicaSetSpec has no revisionHistoryLimit (the other workloads default it to 10).
    if (object.kind !== 'ReplicaSet') spec.revisionHistoryLimit ??= 10;
    if (object.kind === 'Deployment') {
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      };
    }
    if (isJsonObject<Json>(spec.template) && isJsonObject<Json>(spec.template.spec))
      defaultPodSpec(spec.template.spec);
  },
  prepareForUpdate(object) {
    if (isJsonObject<Json>(object.spec)) {
      object.spec.replicas ??= 1;
      if (isJsonObject<Json>(object.spec.template) && isJsonObject<Json>(object.spec.template.spec))
        defaultPodSpec(object.spec.template.spec);
    }
  },
  validate: validateSelectorMatchesTemplate,
};

/** Labels kube-apiserver puts on a Job's Pod template, each naming the Job. */
export const jobLabels = {
  controllerUid: 'batch.kubernetes.io/controller-uid',
  jobName: 'batch.kubernetes.io/job-name',
  legacyControllerUid: 'controller-uid',
  legacyJobName: 'job-name',
} as const;

/** The defaults of batch/v1 Job: parallelism and completions 1, backoffLimit 6, NonIndexed. */
function defaultJob(object: Obj): void {
  const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
  object.spec = spec;
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  if (spec.podFailurePolicy === undefined) spec.podReplacementPolicy ??= 'TerminatingOrFailed';
  if (isJsonObject<Json>(spec.template) && isJsonObject<Json>(spec.template.spec))
    defaultPodSpec(spec.template.spec);
}

/**
 * Unless `spec.manualSelector` is true: selects the Job's Pods by its uid and labels its Pod
 * template with the uid and name (both the `batch.kubernetes.io/` and the legacy labels).
 */
function generateJobSelector(object: Obj): void {
  const spec = object.spec;
  if (!isJsonObject<Json>(spec) || spec.manualSelector === true) return;
  const uid = object.metadata?.uid ?? '';
  const name = object.metadata?.name ?? '';
  const template: Json = isJsonObject<Json>(spec.template) ? spec.template : {};
  spec.template = template;
  const metadata: Json = isJsonObject<Json>(template.metadata) ? template.metadata : {};
  template.metadata = metadata;
  metadata.labels = {
    ...(isJsonObject<Json>(metadata.labels) ? metadata.labels : {}),
    [jobLabels.controllerUid]: uid,
    [jobLabels.jobName]: name,
    [jobLabels.legacyControllerUid]: uid,
    [jobLabels.legacyJobName]: name,
  };
  spec.selector ??= { matchLabels: { [jobLabels.controllerUid]: uid } };
}

/** A Job's Pod template is a valid Pod spec that runs to completion, matched by the selector. */
function validateJob(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = object.spec;
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const template = isJsonObject<Json>(spec.template) ? spec.template : {};
  const errors = [
    ...validateSelectorMatchesTemplate(object, old),
    ...validatePodSpec(template.spec, 'spec.template.spec'),
  ];
  const policy = isJsonObject<Json>(template.spec) ? template.spec.restartPolicy : undefined;
  if (policy !== 'Never' && policy !== 'OnFailure') {
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'spec.template.spec.restartPolicy',
      value: policy ?? '',
      detail: 'supported values: "OnFailure", "Never"',
    });
  }
  for (const field of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds']) {
    const value = spec[field];
    if (value === undefined || value === null) continue;
    const minimum = field === 'activeDeadlineSeconds' ? 1 : 0;
    if (!Number.isInteger(value) || value < minimum)
      errors.push({
        type: 'FieldValueInvalid',
        field: `spec.${field}`,
        value,
        detail: `must be greater than or equal to ${minimum}`,
      });
  }
  return errors;
}

function podUpdateProblems(object: Obj, old: Obj): FieldError[] {
  // Pod specs are immutable but for container images and a few scheduling fields.
  const normalize = (spec: unknown): string => {
    if (!isJsonObject<Json>(spec)) return canonicalJson(spec);
    const copy = structuredClone(spec);
    for (const list of ['containers', 'initContainers']) {
      if (Array.isArray(copy[list]))
        for (const c of copy[list]) if (isJsonObject<Json>(c)) c.image = '';
    }
    copy.activeDeadlineSeconds = undefined;
    copy.tolerations = undefined;
    copy.terminationGracePeriodSeconds = undefined;
    copy.nodeName = undefined;
    return canonicalJson(copy);
  };
  if (normalize(object.spec) === normalize(old.spec)) return [];
  return [
    {
      type: 'FieldValueForbidden',
      field: 'spec',
      detail:
        'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    },
  ];
}

function defaultService(
  object: Obj,
  context: StrategyContext | undefined,
  old: Obj | undefined,
): void {
  const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
  object.spec = spec;
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (Array.isArray(spec.ports)) {
    for (const port of spec.ports) {
      if (!isJsonObject<Json>(port)) continue;
      port.protocol ??= 'TCP';
      port.targetPort ??= port.port;
    }
  }
  if (spec.type !== 'ExternalName') {
    const previous =
      old !== undefined && isJsonObject<Json>(old.spec) ? old.spec.clusterIP : undefined;
    if (previous !== undefined) {
      spec.clusterIP ??= previous;
    } else if (spec.clusterIP === undefined || spec.clusterIP === '') {
      spec.clusterIP = context?.allocateClusterIP() ?? '';
    }
    spec.clusterIPs ??= [spec.clusterIP];
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.internalTrafficPolicy ??= 'Cluster';
  }
}

const strategies: Record<string, Strategy> = {
  '/namespaces': {
    keepStatusOnCreate: true,
    prepareForCreate(object) {
      const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
      spec.finalizers ??= ['kubernetes'];
      object.spec = spec;
      object.status = { phase: 'Active' };
      object.metadata ??= {};
      object.metadata.labels = {
        ...object.metadata.labels,
        'kubernetes.io/metadata.name': object.metadata.name ?? '',
      };
    },
    prepareForUpdate(object, old) {
      object.metadata ??= {};
      object.metadata.labels = {
        ...object.metadata.labels,
        'kubernetes.io/metadata.name': old.metadata?.name ?? '',
      };
      object.spec = old.spec;
    },
  },
  '/pods': {
    prepareForCreate(object) {
      const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
      object.spec = spec;
      defaultPodSpec(spec);
      object.status = { phase: 'Pending', qosClass: 'BestEffort' };
    },
    validate(object, old) {
      const errors = validatePodSpec(object.spec, 'spec');
      if (old !== undefined && errors.length === 0) errors.push(...podUpdateProblems(object, old));
      return errors;
    },
  },
  '/services': {
    prepareForCreate(object, context) {
      defaultService(object, context, undefined);
      object.status = { loadBalancer: {} };
    },
    prepareForUpdate(object, old) {
      defaultService(object, undefined, old);
    },
    validate(object, old) {
      const spec = object.spec;
      const errors: FieldError[] = [];
      if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
      if (
        spec.type !== 'ExternalName' &&
        spec.clusterIP !== 'None' &&
        (!Array.isArray(spec.ports) || spec.ports.length === 0)
      ) {
        errors.push({ type: 'FieldValueRequired', field: 'spec.ports' });
      }
      if (Array.isArray(spec.ports)) {
        spec.ports.forEach((port: unknown, index: number) => {
          if (!isJsonObject<Json>(port)) return;
          if (typeof port.port !== 'number' || port.port < 1 || port.port > 65535) {
            errors.push({
              type: 'FieldValueInvalid',
              field: `spec.ports[${index}].port`,
              value: port.port ?? 0,
              detail: 'must be between 1 and 65535, inclusive',
            });
          }
          if (!['TCP', 'UDP', 'SCTP'].includes(port.protocol)) {
            errors.push({
              type: 'FieldValueNotSupported',
              field: `spec.ports[${index}].protocol`,
              value: port.protocol,
              detail: 'supported values: "SCTP", "TCP", "UDP"',
            });
          }
          if (spec.ports.length > 1 && !port.name) {
            errors.push({ type: 'FieldValueRequired', field: `spec.ports[${index}].name` });
          }
        });
      }
      if (
        old !== undefined &&
        isJsonObject<Json>(old.spec) &&
        old.spec.clusterIP &&
        spec.clusterIP !== old.spec.clusterIP
      ) {
        errors.push({
          type: 'FieldValueInvalid',
          field: 'spec.clusterIPs[0]',
          value: spec.clusterIP,
          detail: 'may not change once set',
        });
      }
      return errors;
    },
  },
  '/secrets': {
    prepareForCreate: normalizeSecret,
    prepareForUpdate: normalizeSecret,
    validate: (object) => [...secretKeyErrors(object), ...secretSizeErrors(object)],
  },
  '/configmaps': {
    validate: (object) => [...configMapKeyErrors(object), ...configMapSizeErrors(object)],
  },
  '/nodes': { keepStatusOnCreate: true },
  '/events': { keepStatusOnCreate: true },
  'events.k8s.io/events': { keepStatusOnCreate: true },
  'batch/jobs': {
    prepareForCreate: defaultJob,
    prepareForUpdate(object, old) {
      defaultJob(object);
      // The selector and the labels it generated are the Job's for life.
      if (
        isJsonObject<Json>(object.spec) &&
        isJsonObject<Json>(old.spec) &&
        old.spec.selector !== undefined
      )
        object.spec.selector = old.spec.selector;
    },
    completeCreate: generateJobSelector,
    validate: validateJob,
  },
  'apps/deployments': { ...workload, statusKeepsAnnotations: true },
  'apps/replicasets': workload,
  'apps/statefulsets': workload,
  'apps/daemonsets': {
    ...workload,
    prepareForCreate(object) {
      if (
        isJsonObject<Json>(object.spec) &&
        isJsonObject<Json>(object.spec.template) &&
        isJsonObject<Json>(object.spec.template.spec)
      ) {
        defaultPodSpec(object.spec.template.spec);
      }
    },
  },
  'apiextensions.k8s.io/customresourcedefinitions': {
    prepareForCreate(object) {
      object.status = crdStatus(object as CustomResourceDefinitionObject);
    },
    prepareForUpdate(object, old, subresource) {
      object.status = crdStatus(
        object as CustomResourceDefinitionObject,
        storedVersionsOnUpdate(object, old, subresource),
      );
    },
    validate: validateCrd,
  },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': {
    prepareForCreate: defaultWebhooks,
    prepareForUpdate: defaultWebhooks,
    validate: validateWebhooks,
  },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': {
    prepareForCreate: defaultWebhooks,
    prepareForUpdate: defaultWebhooks,
    validate: validateWebhooks,
  },
};

/** The strategy of a resource (`group/plural`); an empty one for kinds without special rules. */
export function strategyFor(storageKey: string): Strategy {
  return strategies[storageKey] ?? {};
}

function normalizeSecret(object: Obj): void {
  object.type ??= 'Opaque';
  if (isJsonObject<Json>(object.stringData)) {
    const data: Json = isJsonObject<Json>(object.data) ? object.data : {};
    for (const [key, value] of Object.entries(object.stringData)) {
      data[key] = Buffer.from(String(value)).toString('base64');
    }
    object.data = data;
    object.stringData = undefined;
    delete object.stringData;
  }
}

/**
 * `status.storedVersions` after an update, as kube-apiserver keeps it: a status write sets it
 * (unchecked); any other write keeps the old list and appends the storage version when it is
 * not in it yet (objects may now be stored at it, and the older ones still are at theirs,
 * until a storage version migration rewrites them and someone removes those).
 */
function storedVersionsOnUpdate(object: Obj, old: Obj, subresource: string): string[] {
  const listed = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  if (subresource === 'status') return listed(object.status?.storedVersions);
  const stored = listed(old.status?.storedVersions);
  const crd = object as CustomResourceDefinitionObject;
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  return storage === undefined || stored.includes(storage) ? stored : [...stored, storage];
}

/** A CRD's status: established, and `storedVersions` (on create, the storage version). */
function crdStatus(crd: CustomResourceDefinitionObject, storedVersions?: string[]): Json {
  const now = formatRfc3339Seconds();
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  return {
    acceptedNames: crd.spec?.names ?? {},
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
        lastTransitionTime: now,
      },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
        lastTransitionTime: now,
      },
    ],
    storedVersions: storedVersions ?? (storage ? [storage] : []),
  };
}

function validateCrd(object: Obj): FieldError[] {
  const crd = object as CustomResourceDefinitionObject;
  const errors: FieldError[] = [];
  const spec = crd.spec as unknown;
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const group = typeof spec.group === 'string' ? spec.group : '';
  const names = isJsonObject<Json>(spec.names) ? spec.names : {};
  if (group === '') errors.push({ type: 'FieldValueRequired', field: 'spec.group' });
  else if (!group.includes('.'))
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.group',
      value: group,
      detail: 'should be a domain with at least one dot',
    });
  if (!names.plural) errors.push({ type: 'FieldValueRequired', field: 'spec.names.plural' });
  if (!names.kind) errors.push({ type: 'FieldValueRequired', field: 'spec.names.kind' });
  if (names.plural && group && crd.metadata?.name !== `${names.plural}.${group}`) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'metadata.name',
      value: crd.metadata?.name ?? '',
      detail: 'must be spec.names.plural+"."+spec.group',
    });
  }
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'spec.scope',
      value: spec.scope ?? '',
      detail: 'supported values: "Cluster", "Namespaced"',
    });
  }
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.versions',
      value: versions,
      detail: 'must have exactly one version marked as storage version',
    });
    return errors;
  }
  const storage = versions.filter(
    (v: unknown) => isJsonObject<Json>(v) && v.storage === true,
  ).length;
  if (storage !== 1) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.versions',
      value: versions.map((v: Json) => v?.name),
      detail: 'must have exactly one version marked as storage version',
    });
  }
  versions.forEach((version: unknown, index: number) => {
    if (!isJsonObject<Json>(version)) return;
    const schema = isJsonObject<Json>(version.schema) ? version.schema.openAPIV3Schema : undefined;
    const at = `spec.versions[${index}].schema.openAPIV3Schema`;
    if (!isJsonObject<Json>(schema)) {
      errors.push({ type: 'FieldValueRequired', field: at, detail: 'schemas are required' });
      return;
    }
    for (const problem of validateStructuralSchema(schema)) {
      errors.push({ ...problem, field: problem.field ? `${at}.${problem.field}` : at });
    }
  });
  errors.push(...crdValidationRuleErrors(versions));
  return errors;
}

function defaultWebhooks(object: Obj): void {
  if (!Array.isArray(object.webhooks)) return;
  const mutating = object.kind === 'MutatingWebhookConfiguration';
  for (const webhook of object.webhooks) {
    if (!isJsonObject<Json>(webhook)) continue;
    webhook.failurePolicy ??= 'Fail';
    webhook.matchPolicy ??= 'Equivalent';
    webhook.namespaceSelector ??= {};
    webhook.objectSelector ??= {};
    webhook.timeoutSeconds ??= 10;
    if (mutating) webhook.reinvocationPolicy ??= 'Never';
    if (Array.isArray(webhook.rules))
      for (const rule of webhook.rules) if (isJsonObject<Json>(rule)) rule.scope ??= '*';
    if (
      isJsonObject<Json>(webhook.clientConfig) &&
      isJsonObject<Json>(webhook.clientConfig.service)
    )
      webhook.clientConfig.service.port ??= 443;
  }
}

function validateWebhooks(object: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const webhooks = Array.isArray(object.webhooks) ? object.webhooks : [];
  const names = new Set<string>();
  webhooks.forEach((webhook: unknown, index: number) => {
    const at = `webhooks[${index}]`;
    if (!isJsonObject<Json>(webhook)) return;
    if (typeof webhook.name !== 'string' || !webhook.name.includes('.')) {
      errors.push({
        type: 'FieldValueInvalid',
        field: `${at}.name`,
        value: webhook.name ?? '',
        detail: 'should be a domain with at least three segments separated by dots',
      });
    } else if (names.has(webhook.name)) {
      errors.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: webhook.name });
    } else {
      names.add(webhook.name);
    }
    if (!['None', 'NoneOnDryRun'].includes(webhook.sideEffects)) {
      errors.push({
        type: 'FieldValueNotSupported',
        field: `${at}.sideEffects`,
        value: webhook.sideEffects ?? '',
        detail: 'supported values: "None", "NoneOnDryRun"',
      });
    }
    if (
      !Array.isArray(webhook.admissionReviewVersions) ||
      webhook.admissionReviewVersions.length === 0
    ) {
      errors.push({
        type: 'FieldValueRequired',
        field: `${at}.admissionReviewVersions`,
        detail: 'must specify one of v1, v1beta1',
      });
    }
    const client = isJsonObject<Json>(webhook.clientConfig) ? webhook.clientConfig : {};
    if ((client.url === undefined) === (client.service === undefined)) {
      errors.push({
        type: 'FieldValueRequired',
        field: `${at}.clientConfig`,
        detail: 'exactly one of url or service is required',
      });
    }
  });
  return errors;
}
