// The application-operator's part of the demo: its webhook wiring, its sample, and what the
// demo shows (Deployments and Applications as they change).
import { openWatch } from '@ops/envtest';
import { installWebhooks } from './webhooks.mjs';

/** The demo of the application-operator (`./scripts/demo.sh` or `./scripts/demo.sh application`). */
export const applicationDemo = {
  name: 'application-operator',
  dir: 'operators/application-operator',

  /**
   * Installs what `kubectl apply -k config/default` would, minus the manager Deployment: the
   * operator runs here as a process, and its webhooks are called on this machine (through the
   * Service's Endpoints on the local server, by URL on the loopback address with --real).
   * Resolves with the operator's webhook flags.
   */
  install(options) {
    return installWebhooks({ name: 'application-operator', ...options });
  },

  /** Applies the sample Application `demo`. */
  async applySample(client, say) {
    say('applying the sample Application demo (nginx:1.22)');
    await client.create({
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'demo', namespace: 'default' },
      spec: { enabled: true, image: 'nginx:1.22' },
    });
  },

  /**
   * Reports Deployments and Applications of `default` as they change; calls `onReady` once
   * with the commands to try when the sample is ready. Resolves with `{ poll, close }`.
   */
  async watch(kubeConfig, say, onReady) {
    const deployments = await openWatch(
      kubeConfig,
      '/apis/apps/v1/namespaces/default/deployments?watch=true',
    );
    const applications = await openWatch(
      kubeConfig,
      '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications?watch=true',
    );
    const seen = { deployments: 0, applications: 0 };
    let readyShown = false;
    return {
      poll(at) {
        for (const event of deployments.events.slice(seen.deployments)) {
          const d = event.object;
          say(
            `${at()} Deployment ${d.metadata.name} ${event.type.toLowerCase()}: ${d.status?.availableReplicas ?? 0}/${d.spec?.replicas ?? 0} available, image ${d.spec?.template?.spec?.containers?.[0]?.image}`,
          );
        }
        seen.deployments = deployments.events.length;
        for (const event of applications.events.slice(seen.applications)) {
          const a = event.object;
          const ready = a.status?.conditions?.find((c) => c.type === 'Ready');
          say(
            `${at()} Application ${a.metadata.name} ${event.type.toLowerCase()}: ready=${a.status?.ready ?? false}${ready ? ` (${ready.reason})` : ''}${a.metadata.finalizers ? `, finalizers ${a.metadata.finalizers.join(',')}` : ''}`,
          );
          if (a.status?.ready === true && !readyShown) {
            readyShown = true;
            onReady('the sample Application is ready', [
              'kubectl get applications,deployments,pods',
              'kubectl patch application demo --type=merge -p \'{"spec":{"image":"nginx:1.23"}}\'',
              'kubectl apply -f - <<< \'{"apiVersion":"core.crd.lixueduan.com/v1","kind":"Application","metadata":{"name":"bad"},"spec":{"image":""}}\'   # denied by the webhook',
            ]);
          }
        }
        seen.applications = applications.events.length;
      },
      close() {
        deployments.close();
        applications.close();
      },
    };
  },
};
