import { parseArgs } from 'node:util';
import { OperatorFlagError } from '../errors/operator-flag-error.js';
import type { BindAddress } from '../manager/manager.js';
import { parseBindAddress } from './bind-address.js';

/** Where the webhook server's certificate comes from (`--webhook-cert-mode`). */
export type WebhookCertMode =
  /** `tls.crt` and `tls.key` in `--webhook-cert-dir`, put there by someone else (cert-manager). */
  | 'provided'
  /** The operator makes, stores, injects and rotates its own CA and certificate. */
  | 'self-managed';

/** The log levels `--log-level` takes (pino's). */
export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** The formats `--log-format` takes: one JSON object a line, or one text line for a person. */
export const logFormats = ['json', 'text'] as const;

/** A log format (`--log-format`). */
export type LogFormat = (typeof logFormats)[number];

/** The entry point's settings, from flags first, then environment variables, then defaults. */
export interface OperatorFlags {
  /** `-h` / `--help` was given: print {@link operatorUsage} and do nothing else. */
  help: boolean;
  /** `--kubeconfig`; unset: as kubectl finds it (`KUBECONFIG`, `~/.kube/config`), then in-cluster. */
  kubeconfig?: string;
  /**
   * `--metrics-bind-address` / `METRICS_BIND_ADDRESS`, default `:8443` when secure, `:8080`
   * with `--metrics-secure=false`; `false` is disabled (`0`).
   */
  metricsBindAddress: BindAddress;
  /**
   * `--metrics-secure` / `METRICS_SECURE`, default true: `/metrics` over HTTPS, each scrape
   * authenticated and authorized by the API server (kubebuilder's default since v4.1);
   * `--metrics-secure=false` serves plain HTTP to anyone.
   */
  metricsSecure: boolean;
  /** `--metrics-cert-path` / `METRICS_CERT_PATH`: directory of the metrics `tls.crt`/`tls.key`; unset: self-signed. */
  metricsCertPath?: string;
  /** `--health-probe-bind-address` / `HEALTH_PROBE_BIND_ADDRESS`, default `:8081`; `false` is disabled. */
  healthProbeBindAddress: BindAddress;
  /** `--leader-elect` / `LEADER_ELECT=true`, default off. */
  leaderElect: boolean;
  /** `--leader-election-namespace` / `LEADER_ELECTION_NAMESPACE`; unset: the Pod's namespace. */
  leaderElectionNamespace?: string;
  /**
   * `--leader-election-identity` / `LEADER_ELECTION_IDENTITY`: this replica's identity in
   * the leader-election Lease and, with sharding, its name in the rings (the Manager's
   * `leaderElectionIdentity`: a label value, the pod name from the downward API fits);
   * unset: host name plus a random suffix.
   */
  leaderElectionIdentity?: string;
  /**
   * `--sharding` / `SHARDING=true`, default off: the operator's shardable controllers shard
   * their objects across all replicas (`withOptions({ sharding })`) instead of running on
   * the leader only. The operator's `setup` reads it; `runOperator` itself only passes it on.
   */
  sharding: boolean;
  /**
   * `--sharding-by` / `SHARDING_BY`, `name` (default) or `namespace`: what a sharded
   * controller hashes its objects by (`withOptions({ sharding: { by } })`); `namespace` uses
   * kube-apiserver's server-side sharded watches where the cluster has them.
   */
  shardingBy: 'name' | 'namespace';
  /** `--webhook-port` / `WEBHOOK_PORT`, default 9443. */
  webhookPort: number;
  /** `--webhook-cert-dir` / `WEBHOOK_CERT_DIR`; unset: `$TMPDIR/k8s-webhook-server/serving-certs`. */
  webhookCertDir?: string;
  /** False with `--disable-webhooks` / `ENABLE_WEBHOOKS=false`. */
  webhooksEnabled: boolean;
  /** `--webhook-cert-mode` / `WEBHOOK_CERT_MODE`, default `provided`. */
  webhookCertMode: WebhookCertMode;
  /** `--webhook-cert-secret` / `WEBHOOK_CERT_SECRET`; unset: `<prefix>webhook-server-cert`. */
  webhookCertSecret?: string;
  /** `--webhook-cert-namespace` / `WEBHOOK_CERT_NAMESPACE`; unset: the Pod's namespace. */
  webhookCertNamespace?: string;
  /** `--log-level` / `LOG_LEVEL`, default `info`. */
  logLevel: (typeof logLevels)[number];
  /** `--log-format` / `LOG_FORMAT`; unset: `text` when stdout is a terminal, else `json`. */
  logFormat?: LogFormat;
}

interface FlagSpec {
  type: 'string' | 'boolean';
  /** The placeholder of a string flag's value in the usage. */
  value?: string;
  /** How the environment sets it, as shown in the usage. */
  env?: string;
  description: string;
  short?: string;
}

/** Every flag, in usage order. The names and defaults are controller-runtime's / kubebuilder's. */
const flagSpecs: Record<string, FlagSpec> = {
  kubeconfig: {
    type: 'string',
    value: '<path>',
    env: 'KUBECONFIG',
    description: 'kubeconfig file; default: as kubectl finds it, then in-cluster',
  },
  'metrics-bind-address': {
    type: 'string',
    value: '<addr>',
    env: 'METRICS_BIND_ADDRESS',
    description:
      'host:port of /metrics, or 0 to disable (default :8443, or :8080 with --metrics-secure=false)',
  },
  'metrics-secure': {
    type: 'string',
    value: '<bool>',
    env: 'METRICS_SECURE',
    description:
      'true: serve /metrics over HTTPS to callers whose token the API server authenticates and authorizes (get /metrics); false: plain HTTP to anyone (default true)',
  },
  'metrics-cert-path': {
    type: 'string',
    value: '<dir>',
    env: 'METRICS_CERT_PATH',
    description:
      'directory with the metrics tls.crt and tls.key (default: a self-signed certificate made at start)',
  },
  'health-probe-bind-address': {
    type: 'string',
    value: '<addr>',
    env: 'HEALTH_PROBE_BIND_ADDRESS',
    description: 'host:port of /healthz and /readyz, or 0 to disable (default :8081)',
  },
  'leader-elect': {
    type: 'boolean',
    env: 'LEADER_ELECT=true',
    description: 'run controllers only while holding the Lease',
  },
  'leader-election-namespace': {
    type: 'string',
    value: '<ns>',
    env: 'LEADER_ELECTION_NAMESPACE',
    description: "namespace of the Lease (default: the pod's)",
  },
  'leader-election-identity': {
    type: 'string',
    value: '<id>',
    env: 'LEADER_ELECTION_IDENTITY',
    description:
      "this replica's identity in its Leases, a label value (default: host name + random suffix; give the pod name)",
  },
  sharding: {
    type: 'boolean',
    env: 'SHARDING=true',
    description:
      "shard the operator's shardable controllers across all replicas (each reconciles its share) instead of leading with one",
  },
  'sharding-by': {
    type: 'string',
    value: '<name|namespace>',
    env: 'SHARDING_BY',
    description:
      "with --sharding, hash objects by name (default) or by namespace (a namespace's objects share a replica; server-side sharded watches where kube-apiserver has them)",
  },
  'webhook-port': {
    type: 'string',
    value: '<port>',
    env: 'WEBHOOK_PORT',
    description: 'port of the admission webhook server (default 9443)',
  },
  'webhook-cert-dir': {
    type: 'string',
    value: '<dir>',
    env: 'WEBHOOK_CERT_DIR',
    description:
      'directory with tls.crt and tls.key (default $TMPDIR/k8s-webhook-server/serving-certs)',
  },
  'webhook-cert-mode': {
    type: 'string',
    value: '<mode>',
    env: 'WEBHOOK_CERT_MODE',
    description:
      'provided: tls.crt/tls.key are put in the cert dir (cert-manager); self-managed: the operator makes, injects and rotates its own (default provided)',
  },
  'webhook-cert-secret': {
    type: 'string',
    value: '<name>',
    env: 'WEBHOOK_CERT_SECRET',
    description:
      'self-managed: the Secret holding CA and certificate (default <name>-webhook-server-cert)',
  },
  'webhook-cert-namespace': {
    type: 'string',
    value: '<ns>',
    env: 'WEBHOOK_CERT_NAMESPACE',
    description:
      "self-managed: namespace of that Secret and the webhook Service (default: the pod's)",
  },
  'disable-webhooks': {
    type: 'boolean',
    env: 'ENABLE_WEBHOOKS=false',
    description: 'run without the webhook server',
  },
  'log-level': {
    type: 'string',
    value: '<level>',
    env: 'LOG_LEVEL',
    description: 'trace, debug, info, warn, error (default info)',
  },
  'log-format': {
    type: 'string',
    value: '<format>',
    env: 'LOG_FORMAT',
    description: 'json, or text: one line for a person (default text on a terminal, else json)',
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

/**
 * The `--help` text of an operator named `name`: every flag, its value, default and
 * environment variable.
 */
export function operatorUsage(name: string): string {
  const rows = Object.entries(flagSpecs).map(([flag, spec]) => {
    const left = `${spec.short ? `-${spec.short}, ` : ''}--${flag}${spec.value ? ` ${spec.value}` : ''}`;
    return `  ${left.padEnd(34)}  ${spec.description}${spec.env ? ` [${spec.env}]` : ''}`;
  });
  return `Usage: ${name} [options]\n\nOptions (each also read from the environment variable in brackets):\n${rows.join('\n')}\n`;
}

/**
 * Reads the entry point's flags from `argv` (the arguments after the script) and, for
 * those not given, from `env`, then applies the defaults. A flag always wins over its
 * environment variable.
 *
 * @throws {OperatorFlagError} naming the flag (and the variable, when the value came from
 * the environment): an unknown flag, a positional argument, a missing value, a bind address
 * that is not `host:port`/`:port`/`0`, a port that is not a whole number from 0 to 65535, an
 * unknown log level, log format or cert mode, an empty value, a --metrics-secure other than
 * true/false, or a boolean variable other than
 * `true`/`false`.
 */
export function parseOperatorFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): OperatorFlags {
  const values = parseArgv(argv);
  /** The flag's value, else the variable's, with a label for errors. */
  const pick = (flag: string, variable: string): { value: string; source: string } | undefined => {
    const fromFlag = values[flag];
    if (typeof fromFlag === 'string') return checkNotEmpty(fromFlag, `--${flag}`);
    const fromEnv = env[variable];
    if (fromEnv === undefined || fromEnv === '') return undefined;
    return { value: fromEnv, source: `${variable} (for --${flag})` };
  };
  const bool = (flag: string, variable: string, whenSet: string): boolean => {
    if (values[flag] === true) return true;
    const fromEnv = env[variable];
    if (fromEnv === undefined || fromEnv === '') return false;
    const normalised = fromEnv.toLowerCase();
    if (normalised !== 'true' && normalised !== 'false') {
      throw new OperatorFlagError(
        `${variable} (for --${flag}) must be true or false, got ${JSON.stringify(fromEnv)}`,
      );
    }
    return normalised === whenSet;
  };

  const metrics = pick('metrics-bind-address', 'METRICS_BIND_ADDRESS');
  const secure = pick('metrics-secure', 'METRICS_SECURE');
  const metricsSecure = secure ? parseBoolean(secure) : true;
  const health = pick('health-probe-bind-address', 'HEALTH_PROBE_BIND_ADDRESS');
  const port = pick('webhook-port', 'WEBHOOK_PORT');
  const level = pick('log-level', 'LOG_LEVEL');
  const mode = pick('webhook-cert-mode', 'WEBHOOK_CERT_MODE');
  const format = pick('log-format', 'LOG_FORMAT');
  const shardingBy = pick('sharding-by', 'SHARDING_BY');
  const flags: OperatorFlags = {
    help: values.help === true,
    metricsBindAddress: metrics
      ? parseBindAddress(metrics.value, metrics.source)
      : { port: metricsSecure ? 8443 : 8080 },
    metricsSecure,
    healthProbeBindAddress: health ? parseBindAddress(health.value, health.source) : { port: 8081 },
    leaderElect: bool('leader-elect', 'LEADER_ELECT', 'true'),
    sharding: bool('sharding', 'SHARDING', 'true'),
    shardingBy: shardingBy ? parseOneOf(shardingBy, ['name', 'namespace'] as const) : 'name',
    webhookPort: port ? parsePort(port.value, port.source) : 9443,
    webhooksEnabled: !bool('disable-webhooks', 'ENABLE_WEBHOOKS', 'false'),
    webhookCertMode: mode ? parseOneOf(mode, ['provided', 'self-managed'] as const) : 'provided',
    logLevel: level ? parseOneOf(level, logLevels) : 'info',
    ...(format ? { logFormat: parseOneOf(format, logFormats) } : {}),
  };
  const optional = {
    kubeconfig:
      typeof values.kubeconfig === 'string'
        ? checkNotEmpty(values.kubeconfig, '--kubeconfig')
        : undefined,
    leaderElectionNamespace: pick('leader-election-namespace', 'LEADER_ELECTION_NAMESPACE'),
    leaderElectionIdentity: pick('leader-election-identity', 'LEADER_ELECTION_IDENTITY'),
    webhookCertDir: pick('webhook-cert-dir', 'WEBHOOK_CERT_DIR'),
    metricsCertPath: pick('metrics-cert-path', 'METRICS_CERT_PATH'),
    webhookCertSecret: pick('webhook-cert-secret', 'WEBHOOK_CERT_SECRET'),
    webhookCertNamespace: pick('webhook-cert-namespace', 'WEBHOOK_CERT_NAMESPACE'),
  };
  for (const [key, picked] of Object.entries(optional)) {
    if (picked !== undefined) (flags as unknown as Record<string, string>)[key] = picked.value;
  }
  return flags;
}

function parseArgv(argv: readonly string[]): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries(
    Object.entries(flagSpecs).map(([flag, spec]) => [
      flag,
      spec.short ? { type: spec.type, short: spec.short } : { type: spec.type },
    ]),
  );
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false })
      .values as Record<string, string | boolean | undefined>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
    // Node's wording varies between versions; these are stable.
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw new OperatorFlagError(`Unknown option '${quoted}'`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new OperatorFlagError(
        `Unexpected argument '${quoted}': the operator takes flags only (--name=value or --name value)`,
      );
    }
    throw new OperatorFlagError(message);
  }
}

function checkNotEmpty(value: string, source: string): { value: string; source: string } {
  if (value === '') throw new OperatorFlagError(`${source} needs a value, got an empty one`);
  return { value, source };
}

function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65_535) {
    throw new OperatorFlagError(
      `${source} must be a port number from 0 to 65535, got ${JSON.stringify(value)}`,
    );
  }
  return port;
}

function parseBoolean(picked: { value: string; source: string }): boolean {
  const normalised = picked.value.toLowerCase();
  if (normalised === 'true') return true;
  if (normalised === 'false') return false;
  throw new OperatorFlagError(
    `${picked.source} must be true or false, got ${JSON.stringify(picked.value)}`,
  );
}

function parseOneOf<T extends string>(
  picked: { value: string; source: string },
  allowed: readonly T[],
): T {
  if ((allowed as readonly string[]).includes(picked.value)) return picked.value as T;
  throw new OperatorFlagError(
    `${picked.source} must be one of ${allowed.join(', ')}, got ${JSON.stringify(picked.value)}`,
  );
}
