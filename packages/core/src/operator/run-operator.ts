import type { Logger } from 'pino';
import { Client } from '../client/client.js';
import { inClusterNamespace } from '../client/in-cluster-namespace.js';
import { loadKubeConfig } from '../client/load-kube-config.js';
import { isConversionDeclaration } from '../crd/conversion.js';
import { CustomResourceDefinitionError } from '../errors/custom-resource-definition-error.js';
import { OperatorFlagError } from '../errors/operator-flag-error.js';
import { WebhookCertificateError } from '../errors/webhook-certificate-error.js';
import { Manager, setupSignalHandler } from '../manager/manager.js';
import { checkWebhookDeclarations } from '../webhook/webhook-declaration.js';
import { defaultCertDir, WebhookServer } from '../webhook/webhook-server.js';
import { certificateNamesOf, type OperatorDefinition } from './operator-definition.js';
import { type OperatorFlags, operatorUsage, parseOperatorFlags } from './operator-flags.js';
import { operatorLogger } from './operator-logger.js';
import { SelfManagedCertificates } from './self-managed-certificates.js';

/** The process around {@link runOperator}; each defaults to the real one. Inject for tests. */
export interface OperatorIo {
  /** The arguments after the script. Default `process.argv.slice(2)`. */
  argv?: readonly string[];
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives `--help` and the log lines. Default: `process.stdout` (pino's own destination for JSON). */
  stdout?: (text: string) => void;
  /** Whether `stdout` is a terminal (text logs unless `--log-format`). Default `process.stdout.isTTY` with the real stdout, else false. */
  stdoutIsTTY?: boolean;
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
 * `operatorUsage`), makes the pino logger (JSON lines, or one text line an entry on a
 * terminal: `--log-format`), the {@link Manager} (metrics, health probes,
 * leader election), the {@link WebhookServer} serving `definition.webhooks` (only when the
 * definition declares webhooks, as controller-runtime starts its webhook server only when
 * one is registered, and unless `--disable-webhooks`) with its certificate provided in the
 * cert dir or, with
 * `--webhook-cert-mode=self-managed`, made and rotated by the operator itself (see
 * {@link SelfManagedCertificates}); lets `definition.setup` add controllers; then runs until
 * the signal aborts.
 *
 * Resolves to the process exit code and never calls `process.exit`: 0 after `--help` or a
 * clean stop; 1 after writing `<name>: <message>` to stderr when a flag is refused
 * (followed by a hint to `--help`) or startup or the run fails (a server cannot bind, the
 * caches do not sync, leader election is lost). Without a serving certificate for declared
 * webhooks the message says how to get one (`ops-operator run` locally; cert-manager,
 * `ops-operator webhook-certs` or `--webhook-cert-mode=self-managed` in a cluster) or to run
 * without them (`--disable-webhooks`). An operator's `main.ts` is therefore
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
  const logger = operatorLogger(flags, {
    name: definition.name,
    ...(io.stdout === undefined ? {} : { write: stdout }),
    isTTY: io.stdoutIsTTY ?? (io.stdout === undefined && process.stdout.isTTY === true),
    env: io.env ?? process.env,
  });
  try {
    await run(definition, flags, logger, io);
    return 0;
  } catch (error) {
    const message = WebhookCertificateError.isInstance(error)
      ? certificateProblem(definition, error)
      : error instanceof Error
        ? error.message
        : String(error);
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
  const conversions = definition.conversions ?? [];
  checkConversionDeclarations(conversions);
  const kubeConfig = loadKubeConfig(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {});
  const certDir = flags.webhookCertDir ?? defaultCertDir();
  let webhookServer: WebhookServer | undefined;
  // As controller-runtime: no webhook server (no port, no certificate) without a webhook.
  if (flags.webhooksEnabled && webhooks.length + conversions.length > 0) {
    webhookServer = new WebhookServer({
      port: flags.webhookPort,
      certDir,
      logger: logger.child({ component: 'webhook' }),
    });
    for (const declaration of webhooks) webhookServer.register(declaration);
    for (const conversion of conversions) webhookServer.register(conversion);
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
    ...(flags.leaderElectionIdentity
      ? { leaderElectionIdentity: flags.leaderElectionIdentity }
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
      webhooks: webhookServer !== undefined,
      ...(webhookServer ? { webhookCertMode: flags.webhookCertMode } : {}),
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

/**
 * Every element of `conversions` made by `defineConversion`, and the conversion of each kind
 * given once, for the kinds whose CRD calls the webhook.
 */
function checkConversionDeclarations(conversions: readonly unknown[]): void {
  const kinds = new Set<string>();
  conversions.forEach((conversion, index) => {
    if (!isConversionDeclaration(conversion)) {
      throw new CustomResourceDefinitionError(
        `conversions[${index}] is not a conversion declaration: make it with defineConversion from @ops/core/crd`,
        `conversions[${index}]`,
      );
    }
    const { name } = conversion.definition;
    if (kinds.has(name)) {
      throw new CustomResourceDefinitionError(
        `conversions lists the conversion of ${name} twice: list each kind's conversion once`,
        `conversions[${index}]`,
      );
    }
    kinds.add(name);
  });
}

/**
 * The declared webhooks cannot be served for want of a certificate: what is missing, and the
 * ways out, in an operator's words (flags and commands, not the server's options).
 */
function certificateProblem(
  definition: OperatorDefinition,
  error: WebhookCertificateError,
): string {
  const names = [
    ...(definition.webhooks ?? []).map((webhook) => webhook.name),
    ...(definition.conversions ?? []).map(
      (conversion) => `the conversion of ${conversion.definition.name}`,
    ),
  ].join(', ');
  const ways =
    `Locally, \`ops-operator run\` makes a CA and serving certificate and passes --webhook-cert-dir (or point --webhook-cert-dir at a directory holding tls.crt and tls.key); ` +
    'in a cluster, mount the Secret cert-manager issues there (config/certmanager), make it with `ops-operator webhook-certs` without cert-manager, or run with --webhook-cert-mode=self-managed. ' +
    'Or run without the webhooks: --disable-webhooks (ENABLE_WEBHOOKS=false).';
  if (error.reason === 'InvalidCertificate') return `${error.message} ${ways}`;
  return `no webhook serving certificate in ${error.certDir} (tls.crt and tls.key), and the operator declares webhooks (${names}), served over HTTPS. ${ways}`;
}
