// The sidecar-operator's part of the demo: its webhooks, its sample (OPERATORS.md's, from
// config/samples) and a Deployment of `app: web` Pods, and what the demo shows (the Pods as
// they come out of admission, the SidecarSet's counts as they change).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWatch } from '@ops/envtest';
import YAML from 'yaml';
import { installWebhooks } from './webhooks.mjs';

const sidecarSets = '/apis/apps.chinalhr.github.io/v1alpha1/sidecarsets';
const hashAnnotation = 'chinalhr.github.io/sidecar-hash';

/** The demo of the sidecar-operator (`./scripts/demo.sh sidecar`). */
export const sidecarDemo = {
  name: 'sidecar-operator',
  dir: 'operators/sidecar-operator',

  /** Its two webhooks (Pod injection, SidecarSet validation), routed to the process here. */
  install(options) {
    return installWebhooks({ name: 'sidecar-operator', ...options });
  },

  /**
   * Applies config/samples/apps_v1alpha1_sidecarset.yaml (SidecarSet logging), waits until the
   * operator has seen it (its status is written from the cache the Pod webhook reads), then
   * creates the Deployment `web` of two `app: web` Pods, which the cluster's ReplicaSet
   * controller creates and the webhook injects.
   */
  async applySample(client, say, operatorDir) {
    const sample = YAML.parse(
      readFileSync(join(operatorDir, 'config/samples/apps_v1alpha1_sidecarset.yaml'), 'utf8'),
    );
    say(`applying the sample SidecarSet ${sample.metadata.name} (config/samples)`);
    await client.create(sample);
    for (let i = 0; ; i++) {
      const seen = await client.get(sample.apiVersion, sample.kind, sample.metadata.name);
      if (seen.status?.observedGeneration === seen.metadata.generation) break;
      if (i > 200)
        throw new Error(`the operator did not report SidecarSet ${sample.metadata.name}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    say('creating the Deployment web: 2 Pods labelled app: web');
    await client.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
        },
      },
    });
  },

  /**
   * Reports Pods of `default` and SidecarSets as they change; calls `onReady` once the sample
   * counts the Deployment's two Pods matched, updated and ready. Resolves with `{ poll, close }`.
   */
  async watch(kubeConfig, say, onReady) {
    const pods = await openWatch(kubeConfig, '/api/v1/namespaces/default/pods?watch=true');
    const sets = await openWatch(kubeConfig, `${sidecarSets}?watch=true`);
    const seen = { pods: 0, sets: 0 };
    let readyShown = false;
    return {
      poll(at) {
        for (const event of pods.events.slice(seen.pods)) {
          const p = event.object;
          const containers = (p.spec?.containers ?? []).map((c) => c.name).join(', ');
          const hashes = p.metadata?.annotations?.[hashAnnotation];
          const ready = p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
          say(
            `${at()} Pod ${p.metadata.name} ${event.type.toLowerCase()}: ${p.status?.phase ?? 'Pending'}${ready ? ', ready' : ''}; containers ${containers}${hashes ? `; ${hashAnnotation} ${hashes}` : ''}`,
          );
        }
        seen.pods = pods.events.length;
        for (const event of sets.events.slice(seen.sets)) {
          const s = event.object;
          const condition = s.status?.conditions?.find((c) => c.type === 'Ready');
          const { matchedPods = 0, updatedPods = 0, readyPods = 0 } = s.status ?? {};
          say(
            `${at()} SidecarSet ${s.metadata.name} ${event.type.toLowerCase()}: matched=${matchedPods} updated=${updatedPods} ready=${readyPods}${condition ? ` (${condition.reason})` : ''}`,
          );
          if (matchedPods === 2 && updatedPods === 2 && readyPods === 2 && !readyShown) {
            readyShown = true;
            onReady("the Deployment's Pods are injected and ready", [
              'kubectl get sidecarsets',
              'kubectl get pods -l app=web -o jsonpath=\'{range .items[*]}{.metadata.name}: {.spec.containers[*].name}{"\\n"}{end}\'',
              'kubectl patch sidecarset logging --type=merge -p \'{"spec":{"containers":[{"name":"log-agent","image":"busybox:1.37"}]}}\'   # UPDATED drops to 0',
              'kubectl rollout restart deployment/web                                  # ... and comes back',
            ]);
          }
        }
        seen.sets = sets.events.length;
      },
      close() {
        pods.close();
        sets.close();
      },
    };
  },
};
