/**
 * Bug class: the operator relies on what its mutating webhook does, and the webhook may be
 * skipped. Its webhook defaults a Widget's `spec.enabled` to true, and its controller builds
 * the child from the defaulted field. The buggy operator declares the webhook with
 * `failurePolicy: Ignore`: while the webhook is unreachable or too slow, the API server
 * admits the Widget unmutated, and the child says "off" where the reference says "on" (the
 * Widget itself lacks the default, for good). The correct twin declares `failurePolicy:
 * Fail`: the user's apply is refused while the webhook is down and succeeds when retried,
 * defaulted. (Defaulting in the controller as well would be another fix.)
 */
import type { KubernetesObject } from '@ops/core';
import { mutatingWebhook, WebhookServer } from '@ops/core/webhook';
import type { ScenarioWebhooks } from '../../../src/explore/run-webhooks.js';
import {
  childOf,
  forWidget,
  patchWidgetStatus,
  type Widget,
  widget,
  widgetScenario,
} from './widget.js';

const reconcile = forWidget(async (owner, manager, request) => {
  const name = `${request.name}-data`;
  const value = `${owner.spec.value}/${owner.spec.enabled === true ? 'on' : 'off'}`;
  await manager.client.apply(childOf(owner, name, value), {
    fieldManager: 'planted',
    force: true,
  });
  if (owner.status?.child !== name) await patchWidgetStatus(manager, request, { child: name });
  return undefined;
});

const path = '/default-widget';

function webhooks(failurePolicy: 'Ignore' | 'Fail'): ScenarioWebhooks {
  const configuration: KubernetesObject = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'widget-defaults' },
    webhooks: [
      {
        name: 'default.widgets.explore.ops.dev',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy,
        timeoutSeconds: 1,
        clientConfig: { service: { name: 'webhook', namespace: 'explore', path } },
        rules: [
          {
            apiGroups: ['explore.ops.dev'],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['widgets'],
          },
        ],
      },
    ],
  } as KubernetesObject;
  return {
    configurations: [configuration],
    // A Widget the API server calls a Fail webhook for; an Ignore webhook cannot be probed
    // (an unreachable one admits the probe as it admits before it is taken up).
    probes: failurePolicy === 'Fail' ? [widget('webhook-probe', { value: 'probe' })] : [],
    createServer: (certDir) =>
      new WebhookServer({ port: 0, host: '127.0.0.1', certDir, watchCertDir: false }).register(
        path,
        mutatingWebhook<Widget>((object) => {
          object.spec.enabled ??= true;
          return object;
        }),
      ),
  };
}

const steps = [{ name: 'create the widget', apply: [widget('app', { value: 'one' })] }];

export const ignoredWebhookBuggy = {
  ...widgetScenario('ignored-webhook (buggy)', reconcile, steps),
  webhooks: webhooks('Ignore'),
};
export const ignoredWebhookCorrect = {
  ...widgetScenario('ignored-webhook (correct)', reconcile, steps),
  webhooks: webhooks('Fail'),
};
