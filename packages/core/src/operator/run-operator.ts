import { readFileSync } from 'node:fs';
import { type Logger, pino } from 'pino';
import { Client } from '../client/client.js';
import { loadKubeConfig } from '../client/load-kube-config.js';
import { OperatorFlagError } from '../errors/operator-flag-error.js';
import { Manager, setupSignalHandler } from '../manager/manager.js';
import { checkWebhookDeclarations } from '../webhook/webhook-declaration.js';
import { defaultCertDir, WebhookServer } from '../webhook/webhook-server.js';
import { certificateNamesOf, type OperatorDefinition } from './operator-definition.js';
import { type OperatorFlags, operatorUsage, parseOperatorFlags } from './operator-flags.js';
import { SelfManagedCertificates } from './self-managed-certificates.js';

/** The process around {@link runOperator}; each defaults to the real one. Inject for tests. */
export interface OperatorIo {
  /** The arguments after the script. Default `process.argv.slice(2)`. */
  argv?: readonly string[];
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives `--help` and the JSON log lines. Default: `process.stdout` (pino's own destination). */
  stdout?: (text: string) => void;
  /** Receives the one-line error of a failed run. Default `process.stderr`. */
  stderr?: (text: string) => void;
  /** Stops the operator when aborted. Default: SIGTERM or SIGINT ({@link setupSignalHandler}). */
  signal?: AbortSignal;
  /** Where the Pod's namespace is read from when a flag does not say. Default the service account's namespace file. */
  podNamespace?: () => string | undefined;
}

/**
 * The operator's entry point, controller-runtime's `ctrl.NewManager` together with
 * kubebuilder's `cmd/main.go`: reads the flags and environment variables (see
 * `operatorUsage`), makes the pino logger, the {@link Manager} (metrics, health probes,
 * leader election), the {@link WebhookServer} serving `definition.webhooks` (unless
 * disabled) with its certificate provided in the cert dir or, with
 * `--webhook-cert-mode=self-managed`, made and rotated by the operator itself (see
 * {@link SelfManagedCertificates}); lets `definition.setup` add controllers; then runs until
 * the signal aborts.
 *
 * Resolves to the process exit code and never calls `process.exit`: 0 after `--help` or a
 * clean stop; 1 after writing `<name>: <message>` to stderr when a flag is refused
 * (followed by a hint to `--help`) or startup or the run fails (a server cannot bind, the
 * caches do not sync, leader election is lost). An operator's `main.ts` is therefore
 * `process.exitCode = await runOperator({...})`.
 */
export async function runOperator(
  definition: OperatorDefinition,
  io: OperatorIo = {},
): Promise<number> {
  const stdout = io.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text: string) => process.stderr.write(text));
  let flags: OperatorFlags;
  try {
    flags = parseOperatorFlags(io.argv ?? process.argv.slice(2), io.env ?? process.env);
  } catch (error) {
    if (!OperatorFlagError.isInstance(error)) throw error;
    stderr(`${definition.name}: ${error.message}\n\n${helpHint}`);
    return 1;
  }
  if (flags.help) {
    stdout(operatorUsage(definition.name));
    return 0;
  }
  const options = { level: flags.logLevel, base: { operator: definition.name } };
  const logger =
    io.stdout === undefined ? pino(options) : pino(options, { write: (line) => stdout(line) });
  try {
    await run(definition, flags, logger, io);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error({ err: error }, `${definition.name} failed`);
    const hint = OperatorFlagError.isInstance(error) ? `\n${helpHint}` : '';
    stderr(`${definition.name}: ${message}\n${hint}`);
    return 1;
  }
}

async function run(
  definition: OperatorDefinition,
  flags: OperatorFlags,
  logger: Logger,
  io: OperatorIo,
): Promise<void> {
  const webhooks = definition.webhooks ?? [];
  checkWebhookDeclarations(webhooks);
  const kubeConfig = loadKubeConfig(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {});
  const certDir = flags.webhookCertDir ?? defaultCertDir();
  let webhookServer: WebhookServer | undefined;
  if (flags.webhooksEnabled) {
    webhookServer = new WebhookServer({
      port: flags.webhookPort,
      certDir,
      logger: logger.child({ component: 'webhook' }),
    });
    for (const declaration of webhooks) webhookServer.register(declaration);
  }
  const manager = new Manager({
    kubeConfig,
    logger,
    metricsBindAddress: flags.metricsBindAddress,
    metricsSecureServing:
      flags.metricsSecure && (flags.metricsCertPath ? { certDir: flags.metricsCertPath } : true),
    healthProbeBindAddress: flags.healthProbeBindAddress,
    leaderElection: flags.leaderElect,
    leaderElectionId: definition.leaderElectionId,
    ...(flags.leaderElectionNamespace
      ? { leaderElectionNamespace: flags.leaderElectionNamespace }
      : {}),
    ...(webhookServer ? { webhookServer } : {}),
  });
  try {
    await prepare({ definition, flags, manager, webhookServer, certDir, logger, io });
  } catch (error) {
    // Nothing was started; the transport's connections would keep the process alive.
    manager.transport.close();
    throw error;
  }
  logger.info(
    {
      webhooks: flags.webhooksEnabled,
      ...(flags.webhooksEnabled ? { webhookCertMode: flags.webhookCertMode } : {}),
    },
    `starting the ${definition.name}`,
  );
  await manager.start(io.signal ?? setupSignalHandler());
}

/** The self-managed certificates (first ones provisioned) and the operator's own setup. */
async function prepare(parts: {
  definition: OperatorDefinition;
  flags: OperatorFlags;
  manager: Manager;
  webhookServer: WebhookServer | undefined;
  certDir: string;
  logger: Logger;
  io: OperatorIo;
}): Promise<void> {
  const { definition, flags, manager, webhookServer, certDir, logger, io } = parts;
  if (webhookServer && flags.webhookCertMode === 'self-managed') {
    const namespace = flags.webhookCertNamespace ?? (io.podNamespace ?? inClusterNamespace)();
    if (namespace === undefined) {
      throw new OperatorFlagError(
        '--webhook-cert-mode=self-managed needs the namespace of its Secret and webhook Service: set --webhook-cert-namespace (or WEBHOOK_CERT_NAMESPACE) when not running in a Pod',
      );
    }
    const { customResourceDefinitions: _names, ...settings } =
      definition.selfManagedCertificates ?? {};
    const server = webhookServer;
    const certificates = new SelfManagedCertificates({
      ...settings,
      // Straight to the API server: a cache could hand out a stale Secret.
      client: new Client({ transport: manager.transport, restMapper: manager.restMapper }),
      names: certificateNamesOf(definition, flags.webhookCertSecret),
      namespace,
      certDir,
      logger: logger.child({ component: 'webhook-certificates' }),
      onServingCertificate: () => server.certWatcher.reload().then(() => undefined),
    });
    // The first certificate must be trusted by the configurations before anything serves it.
    await certificates.provision();
    manager.add({ needLeaderElection: false, start: (signal) => certificates.run(signal) });
  }
  await definition.setup?.(manager, { logger, flags });
}

const helpHint = 'Run with --help for the options.\n';

const serviceAccountNamespaceFile = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

function inClusterNamespace(): string | undefined {
  try {
    return readFileSync(serviceAccountNamespaceFile, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
