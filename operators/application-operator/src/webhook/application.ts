import {
  defineWebhook,
  mutatingWebhook,
  validatingWebhook,
  type WebhookRule,
} from '@ops/core/webhook';
import { type Application, applicationNameProblems } from '../api/v1/application.js';
import { isValidImageReference } from '../api/v1/image-reference.js';

/** Where kube-apiserver calls the validating webhook `vapplication-v1.lixueduan.com`. */
export const validatePath = '/validate-core-crd-lixueduan-com-v1-application';
/** Where kube-apiserver calls the mutating webhook `mapplication-v1.lixueduan.com`. */
export const mutatePath = '/mutate-core-crd-lixueduan-com-v1-application';

/**
 * Rejects an Application whose image is not a valid image reference (an empty one too) with
 * `invalid image name: <image>`, so kubectl prints
 * `admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: <image>`;
 * and, at creation, one whose name the operator cannot serve (its Deployment name or
 * instance label would be invalid: see {@link applicationNameProblems}) with that reason.
 * Updates are not refused for their name (it cannot change), so an Application created
 * before the webhook can still be updated and deleted.
 */
export const validateApplication = validatingWebhook<Application>((application, old) => {
  const image = typeof application.spec?.image === 'string' ? application.spec.image : '';
  const errors = isValidImageReference(image)
    ? []
    : [{ field: 'spec.image', message: `invalid image name: ${image}` }];
  const name = application.metadata?.name;
  if (old === undefined && name)
    for (const message of applicationNameProblems(name))
      errors.push({ field: 'metadata.name', message });
  return errors;
});

/** Fills defaults: `spec.enabled` is true unless set. */
export const defaultApplication = mutatingWebhook<Application>((application) => {
  application.spec ??= {};
  application.spec.enabled ??= true;
  return application;
});

/** CREATE and UPDATE of applications, what both webhooks intercept. */
const rules: WebhookRule[] = [
  {
    apiGroups: ['core.crd.lixueduan.com'],
    apiVersions: ['v1'],
    operations: ['CREATE', 'UPDATE'],
    resources: ['applications'],
  },
];

/** The defaulting webhook, served at {@link mutatePath} and rendered into config/webhook. */
export const applicationDefaulter = defineWebhook({
  type: 'mutating',
  name: 'mapplication-v1.lixueduan.com',
  path: mutatePath,
  rules,
  failurePolicy: 'Fail',
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  handler: defaultApplication,
});

/** The validating webhook, served at {@link validatePath} and rendered into config/webhook. */
export const applicationValidator = defineWebhook({
  type: 'validating',
  name: 'vapplication-v1.lixueduan.com',
  path: validatePath,
  rules,
  failurePolicy: 'Fail',
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  handler: validateApplication,
});
