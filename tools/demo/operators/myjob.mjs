// The myjob-operator's part of the demo: its sample (OPERATORS.md's, from config/samples), and
// what the demo shows (the MyJob's phase and its Pod as they change).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWatch } from '@ops/envtest';
import YAML from 'yaml';
import { installWebhooks } from './webhooks.mjs';

/** The demo of the myjob-operator (`./scripts/demo.sh myjob`). */
export const myJobDemo = {
  name: 'myjob-operator',
  dir: 'operators/myjob-operator',

  /**
   * Its CRD's conversion webhook (MyJob v1beta1 <-> v1, the storage version), called on this
   * machine as `installWebhooks` says; it has no admission webhooks. Resolves with the
   * operator's webhook flags.
   */
  install(options) {
    return installWebhooks({ name: 'myjob-operator', ...options });
  },

  /**
   * Applies config/samples/myjob_v1beta1_myjob.yaml (MyJob myjob-sample) to `default`: in
   * v1beta1, so through the conversion webhook.
   */
  async applySample(client, say, operatorDir) {
    const sample = YAML.parse(
      readFileSync(join(operatorDir, 'config/samples/myjob_v1beta1_myjob.yaml'), 'utf8'),
    );
    say(`applying the sample MyJob ${sample.metadata.name} (config/samples)`);
    await client.create({ ...sample, metadata: { ...sample.metadata, namespace: 'default' } });
  },

  /**
   * Reports Pods and MyJobs of `default` as they change; calls `onReady` once the sample is
   * completed (its Pod ran for the cluster's default run duration, 1s). Resolves with
   * `{ poll, close }`.
   */
  async watch(kubeConfig, say, onReady) {
    const pods = await openWatch(kubeConfig, '/api/v1/namespaces/default/pods?watch=true');
    const myJobs = await openWatch(
      kubeConfig,
      '/apis/myjob.github.com/v1beta1/namespaces/default/myjobs?watch=true',
    );
    const seen = { pods: 0, myJobs: 0 };
    let readyShown = false;
    return {
      poll(at) {
        for (const event of pods.events.slice(seen.pods)) {
          const p = event.object;
          const exits = (p.status?.containerStatuses ?? [])
            .filter((c) => c.state?.terminated)
            .map((c) => `${c.name} exited ${c.state.terminated.exitCode}`);
          say(
            `${at()} Pod ${p.metadata.name} ${event.type.toLowerCase()}: ${p.status?.phase ?? 'Pending'}${exits.length ? ` (${exits.join(', ')})` : ''}`,
          );
        }
        seen.pods = pods.events.length;
        for (const event of myJobs.events.slice(seen.myJobs)) {
          const j = event.object;
          const condition = j.status?.conditions?.find((c) => c.type === 'Completed');
          say(
            `${at()} MyJob ${j.metadata.name} ${event.type.toLowerCase()}: phase=${j.status?.phase ?? '(none)'}${condition ? ` (${condition.reason})` : ''}`,
          );
          if (j.status?.phase === 'completed' && !readyShown) {
            readyShown = true;
            onReady('the sample MyJob is completed', [
              'kubectl get myjobs -o wide',
              'kubectl get pods             # myjob-sample ... Completed',
              'kubectl describe myjob myjob-sample',
            ]);
          }
        }
        seen.myJobs = myJobs.events.length;
      },
      close() {
        pods.close();
        myJobs.close();
      },
    };
  },
};
