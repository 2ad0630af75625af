import { configMap } from '@ops/envtest';
import type { Answer, FidelityScenario, Session } from '../scenario.js';
import { type AdmissionWebhook, startAdmissionWebhook } from './admission-webhook.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-admission';
const collection = `/api/v1/namespaces/${ns}/configmaps`;
const registration = '/apis/admissionregistration.k8s.io/v1';

/** A webhook configuration calling `webhook` by URL for ConfigMaps of the scenario's namespace. */
function configuration(kind: 'Validating' | 'Mutating', webhook: AdmissionWebhook) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name: `fidelity-${kind.toLowerCase()}` },
    webhooks: [
      {
        name: `${kind.toLowerCase()}.fidelity.ops.dev`,
        clientConfig: {
          url: webhook.url(kind === 'Validating' ? '/validate' : '/mutate'),
          caBundle: webhook.caBundle,
        },
        rules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['configmaps'],
          },
        ],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
        timeoutSeconds: 5,
      },
    ],
  };
}

/** The URL and CA of this run's webhook server differ by server; the rest is compared. */
const ownWebhook = {
  mask: ['body.webhooks.*.clientConfig.url', 'body.webhooks.*.clientConfig.caBundle'],
};

/**
 * Waits, without recording, until the server calls both webhooks (kube-apiserver picks up a new
 * configuration moments after creating it).
 */
async function waitUntilCalled(session: Session): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (let attempt = 0; ; attempt++) {
    const name = `probe-${attempt}`;
    const answer: Answer = await session.probe({
      method: 'POST',
      path: `${collection}?dryRun=All`,
      body: configMap(ns, name, {}, { deny: 'no' }),
    });
    const labels = (answer.body as { metadata?: { labels?: Record<string, string> } }).metadata
      ?.labels;
    const denied = await session.probe({
      method: 'POST',
      path: `${collection}?dryRun=All`,
      body: configMap(ns, name, {}, { deny: 'yes' }),
    });
    if (labels?.mutated === 'yes' && denied.status >= 400) return;
    if (Date.now() > deadline)
      throw new Error(
        `the webhooks were not called within 20 s: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Admission webhooks called by URL: mutation, denial, dry run. */
export const admission: FidelityScenario = {
  name: 'admission/webhooks',
  description:
    'Validating and mutating webhooks by URL: configuration answers, mutation, denial message, dry run, update denied',
  async run(session) {
    await useNamespace(session, ns);
    const webhook = await startAdmissionWebhook();
    try {
      await session.send(
        'create validating configuration',
        {
          method: 'POST',
          path: `${registration}/validatingwebhookconfigurations`,
          body: configuration('Validating', webhook),
        },
        ownWebhook,
      );
      await session.send(
        'create mutating configuration',
        {
          method: 'POST',
          path: `${registration}/mutatingwebhookconfigurations`,
          body: configuration('Mutating', webhook),
        },
        ownWebhook,
      );
      await waitUntilCalled(session);
      await session.send('create, mutated', {
        method: 'POST',
        path: collection,
        body: configMap(ns, 'allowed', { a: '1' }, { deny: 'no' }),
      });
      await session.send('create, denied', {
        method: 'POST',
        path: collection,
        body: configMap(ns, 'denied', { a: '1' }, { deny: 'yes' }),
      });
      await session.send('create, dry run, mutated', {
        method: 'POST',
        path: `${collection}?dryRun=All`,
        body: configMap(ns, 'dry', { a: '1' }, { deny: 'no' }),
      });
      await session.send('update, denied', {
        method: 'PUT',
        path: `${collection}/allowed`,
        body: configMap(ns, 'allowed', { a: '2' }, { deny: 'yes' }),
      });
      await session.send('merge patch, mutated again', {
        method: 'PATCH',
        path: `${collection}/allowed`,
        body: { data: { b: '2' } },
        contentType: 'application/merge-patch+json',
      });
      await session.send('create without labels (not mutated)', {
        method: 'POST',
        path: collection,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bare' } },
      });
      await session.send('delete validating configuration', {
        method: 'DELETE',
        path: `${registration}/validatingwebhookconfigurations/fidelity-validating`,
      });
      await session.send('delete mutating configuration', {
        method: 'DELETE',
        path: `${registration}/mutatingwebhookconfigurations/fidelity-mutating`,
      });
    } finally {
      await webhook.close();
    }
  },
};
