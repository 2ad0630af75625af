import { parseArgs } from 'node:util';
import { loadKubeConfig, Manager, setupSignalHandler, WebhookServer } from '@ops/core';
import pino from 'pino';
import { addApplicationController, registerApplicationWebhooks } from './operator.js';

const usage = `Usage: application-operator [options]

Options (each also read from the environment variable in brackets):
  --kubeconfig <path>                 kubeconfig file [KUBECONFIG]; default: as kubectl finds it, then in-cluster
  --metrics-bind-address <addr>       host:port of /metrics, or 0 to disable (default :8080) [METRICS_BIND_ADDRESS]
  --health-probe-bind-address <addr>  host:port of /healthz and /readyz, or 0 to disable (default :8081) [HEALTH_PROBE_BIND_ADDRESS]
  --leader-elect                      run controllers only while holding the Lease [LEADER_ELECT=true]
  --leader-election-namespace <ns>    namespace of the Lease (default: the pod's) [LEADER_ELECTION_NAMESPACE]
  --webhook-port <port>               port of the admission webhook server (default 9443) [WEBHOOK_PORT]
  --webhook-cert-dir <dir>            directory with tls.crt and tls.key (default $TMPDIR/k8s-webhook-server/serving-certs) [WEBHOOK_CERT_DIR]
  --disable-webhooks                  run without the webhook server [ENABLE_WEBHOOKS=false]
  --log-level <level>                 trace, debug, info, warn, error (default info) [LOG_LEVEL]
  -h, --help                          show this help
`;

function bindAddress(value: string, flag: string): { port: number; host?: string } | false {
  if (value === '0') return false;
  const match = /^(.*):(\d+)$/.exec(value);
  if (match === null) throw new Error(`${flag} must be host:port, :port or 0, got "${value}"`);
  const port = Number(match[2]);
  return match[1] ? { host: match[1], port } : { port };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      'metrics-bind-address': { type: 'string' },
      'health-probe-bind-address': { type: 'string' },
      'leader-elect': { type: 'boolean' },
      'leader-election-namespace': { type: 'string' },
      'webhook-port': { type: 'string' },
      'webhook-cert-dir': { type: 'string' },
      'disable-webhooks': { type: 'boolean' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const env = process.env;
  const log = pino({
    level: values['log-level'] ?? env.LOG_LEVEL ?? 'info',
    base: { operator: 'application-operator' },
  });
  const webhooksEnabled = !(values['disable-webhooks'] ?? env.ENABLE_WEBHOOKS === 'false');
  const webhookServer = webhooksEnabled
    ? new WebhookServer({
        port: Number(values['webhook-port'] ?? env.WEBHOOK_PORT ?? 9443),
        ...((values['webhook-cert-dir'] ?? env.WEBHOOK_CERT_DIR)
          ? { certDir: values['webhook-cert-dir'] ?? env.WEBHOOK_CERT_DIR }
          : {}),
        logger: log.child({ component: 'webhook' }),
      })
    : undefined;
  if (webhookServer) registerApplicationWebhooks(webhookServer);
  const kubeconfig = values.kubeconfig;
  const manager = new Manager({
    kubeConfig: loadKubeConfig(kubeconfig ? { kubeconfig } : {}),
    logger: log,
    metricsBindAddress: bindAddress(
      values['metrics-bind-address'] ?? env.METRICS_BIND_ADDRESS ?? ':8080',
      '--metrics-bind-address',
    ),
    healthProbeBindAddress: bindAddress(
      values['health-probe-bind-address'] ?? env.HEALTH_PROBE_BIND_ADDRESS ?? ':8081',
      '--health-probe-bind-address',
    ),
    leaderElection: values['leader-elect'] ?? env.LEADER_ELECT === 'true',
    leaderElectionId: 'application-operator.lixueduan.com',
    ...((values['leader-election-namespace'] ?? env.LEADER_ELECTION_NAMESPACE)
      ? {
          leaderElectionNamespace:
            values['leader-election-namespace'] ?? env.LEADER_ELECTION_NAMESPACE,
        }
      : {}),
    ...(webhookServer ? { webhookServer } : {}),
  });
  addApplicationController(manager);
  log.info({ webhooks: webhooksEnabled }, 'starting the application-operator');
  await manager.start(setupSignalHandler());
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      `application-operator: ${error instanceof Error ? error.message : String(error)}\n\nRun with --help for the options.`,
    );
    process.exitCode = 1;
  },
);
