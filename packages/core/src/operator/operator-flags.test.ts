import { describe, expect, it } from 'vitest';
import { OperatorFlagError } from '../errors/operator-flag-error.js';
import { operatorUsage, parseOperatorFlags } from './operator-flags.js';

function refusal(argv: string[], env: Record<string, string> = {}): string {
  try {
    parseOperatorFlags(argv, env);
  } catch (error) {
    expect(OperatorFlagError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`parseOperatorFlags accepted ${argv.join(' ')}`);
}

describe('parseOperatorFlags', () => {
  it("has controller-runtime defaults, with kubebuilder's secure metrics on :8443", () => {
    expect(parseOperatorFlags([], {})).toEqual({
      help: false,
      metricsBindAddress: { port: 8443 },
      metricsSecure: true,
      healthProbeBindAddress: { port: 8081 },
      leaderElect: false,
      sharding: false,
      shardingBy: 'name',
      webhookPort: 9443,
      webhooksEnabled: true,
      webhookCertMode: 'provided',
      logLevel: 'info',
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(
      parseOperatorFlags(
        [
          '--kubeconfig',
          '/k',
          '--metrics-bind-address=127.0.0.1:1',
          '--metrics-secure=false',
          '--metrics-cert-path',
          '/metrics-certs',
          '--health-probe-bind-address',
          '0',
          '--leader-elect',
          '--leader-election-namespace=ns',
          '--leader-election-identity',
          'pod-0',
          '--sharding',
          '--sharding-by=namespace',
          '--webhook-port',
          '1234',
          '--webhook-cert-dir=/certs',
          '--webhook-cert-mode=self-managed',
          '--webhook-cert-secret=s',
          '--webhook-cert-namespace=n',
          '--disable-webhooks',
          '--log-level=debug',
          '--log-format=text',
          '-h',
        ],
        {},
      ),
    ).toEqual({
      help: true,
      kubeconfig: '/k',
      metricsBindAddress: { host: '127.0.0.1', port: 1 },
      metricsSecure: false,
      metricsCertPath: '/metrics-certs',
      healthProbeBindAddress: false,
      leaderElect: true,
      leaderElectionNamespace: 'ns',
      leaderElectionIdentity: 'pod-0',
      sharding: true,
      shardingBy: 'namespace',
      webhookPort: 1234,
      webhookCertDir: '/certs',
      webhookCertMode: 'self-managed',
      webhookCertSecret: 's',
      webhookCertNamespace: 'n',
      webhooksEnabled: false,
      logLevel: 'debug',
      logFormat: 'text',
    });
  });

  it('reads the environment for what the flags leave out; a flag wins', () => {
    const env = {
      METRICS_BIND_ADDRESS: ':9000',
      METRICS_SECURE: 'False',
      METRICS_CERT_PATH: '/env-metrics',
      HEALTH_PROBE_BIND_ADDRESS: ':9001',
      LEADER_ELECT: 'true',
      LEADER_ELECTION_NAMESPACE: 'lease-ns',
      LEADER_ELECTION_IDENTITY: 'env-pod',
      SHARDING: 'true',
      SHARDING_BY: 'namespace',
      WEBHOOK_PORT: '8443',
      WEBHOOK_CERT_DIR: '/env-certs',
      WEBHOOK_CERT_MODE: 'self-managed',
      WEBHOOK_CERT_SECRET: 'env-secret',
      WEBHOOK_CERT_NAMESPACE: 'env-ns',
      ENABLE_WEBHOOKS: 'false',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    expect(parseOperatorFlags([], env)).toEqual({
      help: false,
      metricsBindAddress: { port: 9000 },
      metricsSecure: false,
      metricsCertPath: '/env-metrics',
      healthProbeBindAddress: { port: 9001 },
      leaderElect: true,
      leaderElectionNamespace: 'lease-ns',
      leaderElectionIdentity: 'env-pod',
      sharding: true,
      shardingBy: 'namespace',
      webhookPort: 8443,
      webhookCertDir: '/env-certs',
      webhookCertMode: 'self-managed',
      webhookCertSecret: 'env-secret',
      webhookCertNamespace: 'env-ns',
      webhooksEnabled: false,
      logLevel: 'warn',
      logFormat: 'json',
    });
    const flagged = parseOperatorFlags(
      ['--webhook-port=1', '--log-level=error', '--log-format=text'],
      env,
    );
    expect(flagged.webhookPort).toBe(1);
    expect(flagged.logLevel).toBe('error');
    expect(flagged.logFormat).toBe('text');
    expect(
      parseOperatorFlags([], { ENABLE_WEBHOOKS: 'true', LEADER_ELECT: 'FALSE', SHARDING: 'false' }),
    ).toMatchObject({ webhooksEnabled: true, leaderElect: false, sharding: false });
    // Plain metrics default to controller-runtime's :8080, secure ones to kubebuilder's :8443.
    expect(parseOperatorFlags(['--metrics-secure=false'], {}).metricsBindAddress).toEqual({
      port: 8080,
    });
    expect(parseOperatorFlags([], { METRICS_SECURE: 'true' })).toMatchObject({
      metricsBindAddress: { port: 8443 },
      metricsSecure: true,
    });
    // An empty variable is unset, as in kubebuilder's os.Getenv checks.
    expect(parseOperatorFlags([], { WEBHOOK_PORT: '', LOG_LEVEL: '' })).toMatchObject({
      webhookPort: 9443,
      logLevel: 'info',
    });
  });

  it('refuses bad values with a message naming the flag or variable', () => {
    expect(refusal(['--webhook-port=https'])).toBe(
      '--webhook-port must be a port number from 0 to 65535, got "https"',
    );
    expect(refusal([], { WEBHOOK_PORT: '70000' })).toBe(
      'WEBHOOK_PORT (for --webhook-port) must be a port number from 0 to 65535, got "70000"',
    );
    expect(refusal(['--metrics-bind-address=8080'])).toBe(
      '--metrics-bind-address must be host:port, :port or 0 (disabled), with a port from 0 to 65535, got "8080"',
    );
    expect(refusal([], { HEALTH_PROBE_BIND_ADDRESS: 'x' })).toContain(
      'HEALTH_PROBE_BIND_ADDRESS (for --health-probe-bind-address) must be host:port',
    );
    expect(refusal(['--log-level=verbose'])).toBe(
      '--log-level must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
    );
    expect(refusal(['--sharding-by=uid'])).toBe(
      '--sharding-by must be one of name, namespace, got "uid"',
    );
    expect(refusal([], { LOG_FORMAT: 'pretty' })).toBe(
      'LOG_FORMAT (for --log-format) must be one of json, text, got "pretty"',
    );
    expect(refusal(['--webhook-cert-mode=cert-manager'])).toBe(
      '--webhook-cert-mode must be one of provided, self-managed, got "cert-manager"',
    );
    expect(refusal([], { LEADER_ELECT: 'yes' })).toBe(
      'LEADER_ELECT (for --leader-elect) must be true or false, got "yes"',
    );
    expect(refusal([], { SHARDING: 'on' })).toBe(
      'SHARDING (for --sharding) must be true or false, got "on"',
    );
    expect(refusal(['--leader-election-identity='])).toBe(
      '--leader-election-identity needs a value, got an empty one',
    );
    expect(refusal(['--no-such-flag'])).toBe("Unknown option '--no-such-flag'");
    expect(refusal(['-x'])).toBe("Unknown option '-x'");
    expect(refusal(['--webhook-port'])).toContain("'--webhook-port <value>' argument missing");
    expect(refusal(['--leader-elect=false'])).toContain(
      "Option '--leader-elect' does not take an argument",
    );
    expect(refusal(['extra'])).toBe(
      "Unexpected argument 'extra': the operator takes flags only (--name=value or --name value)",
    );
    expect(refusal(['--kubeconfig='])).toBe('--kubeconfig needs a value, got an empty one');
    expect(refusal(['--metrics-secure=no'])).toBe(
      '--metrics-secure must be true or false, got "no"',
    );
    expect(refusal([], { METRICS_SECURE: '1' })).toBe(
      'METRICS_SECURE (for --metrics-secure) must be true or false, got "1"',
    );
  });
});

describe('operatorUsage', () => {
  it('lists every flag with its variable, under the operator name', () => {
    const usage = operatorUsage('demo-operator');
    expect(usage.startsWith('Usage: demo-operator [options]\n\n')).toBe(true);
    for (const line of [
      '--kubeconfig <path>',
      '[KUBECONFIG]',
      '--metrics-bind-address <addr>',
      '(default :8443, or :8080 with --metrics-secure=false) [METRICS_BIND_ADDRESS]',
      '--metrics-secure <bool>',
      '[METRICS_SECURE]',
      '--metrics-cert-path <dir>',
      '[METRICS_CERT_PATH]',
      '--health-probe-bind-address <addr>',
      '(default :8081) [HEALTH_PROBE_BIND_ADDRESS]',
      '--leader-elect ',
      '[LEADER_ELECT=true]',
      '--leader-election-namespace <ns>',
      '--leader-election-identity <id>',
      '[LEADER_ELECTION_IDENTITY]',
      '--sharding ',
      '[SHARDING=true]',
      '--webhook-port <port>',
      '(default 9443) [WEBHOOK_PORT]',
      '--webhook-cert-dir <dir>',
      '--webhook-cert-mode <mode>',
      '[WEBHOOK_CERT_MODE]',
      '--webhook-cert-secret <name>',
      '--webhook-cert-namespace <ns>',
      '--disable-webhooks',
      '[ENABLE_WEBHOOKS=false]',
      '--log-level <level>',
      '--log-format <format>',
      '[LOG_FORMAT]',
      '-h, --help',
    ]) {
      expect(usage).toContain(line);
    }
  });
});
