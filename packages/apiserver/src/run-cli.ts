import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  defaultPodRunDuration,
  parsePodExitCode,
  parsePodRunDuration,
} from './cluster/pod-lifecycle-annotations.js';
import { ApiServer } from './server/api-server.js';
import { PortInUseError } from './server/control/port-in-use-error.js';
import { loadServerState, type ServerState } from './server/control/state-directory.js';
import { servingHosts } from './tls/certificates.js';

const usage = `Usage: local-cluster [options]

Starts the local Kubernetes API server in the foreground until Ctrl-C.

Options:
  --port <n>          port to listen on (default 6443; 0 picks a free one)
  --host <addr>       interface to listen on (default 127.0.0.1)
  --http              serve plain HTTP instead of HTTPS
  --kubeconfig <path> where to write the admin kubeconfig (default ./local-cluster.kubeconfig)
  --rbac              enforce RBAC for every user but the admin
  --state-dir <path>  keep the CA, serving certificate and admin token in <path> (created
                      if missing) and reuse them on the next start, so a kubeconfig written
                      once keeps working across restarts (objects are not kept)
  --history <n>       watch history kept per resource (default 10000)
  --history-from-start
                      keep watch history from resourceVersion 1, as a never-compacted
                      etcd; by default it starts when the server has started, so a watch
                      from an older resourceVersion gets 410 Expired as on a real cluster
  --pod-run-duration <duration>
                      how long a Pod with restartPolicy Never or OnFailure runs once Running,
                      unless its ops-ts.github.io/run-duration annotation says (default 1s)
  --pod-exit-code <n> the exit code such a Pod ends with, unless its
                      ops-ts.github.io/exit-code annotation says: 0 (default) Succeeded,
                      1 to 255 Failed
  -h, --help          show this help
`;

async function main(): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse().values;
  } catch (error) {
    console.error(`local-cluster: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const port = Number(values.port ?? '6443');
  const history = Number(values.history ?? '10000');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`local-cluster: --port must be a number from 0 to 65535, got "${values.port}"`);
    return 2;
  }
  if (!Number.isInteger(history) || history < 1) {
    console.error(`local-cluster: --history must be a positive number, got "${values.history}"`);
    return 2;
  }
  let podRunDurationMs: number;
  try {
    podRunDurationMs = parsePodRunDuration(values['pod-run-duration'] ?? defaultPodRunDuration);
  } catch {
    console.error(
      `local-cluster: --pod-run-duration must be a duration such as 500ms, 3s or 1m30s, got "${values['pod-run-duration']}"`,
    );
    return 2;
  }
  let podExitCode: number;
  try {
    podExitCode = parsePodExitCode(values['pod-exit-code'] ?? '0');
  } catch {
    console.error(
      `local-cluster: --pod-exit-code must be an integer from 0 (Succeeded) to 255 (Failed), got "${values['pod-exit-code']}"`,
    );
    return 2;
  }
  const kubeconfig = resolve(values.kubeconfig ?? 'local-cluster.kubeconfig');
  const host = values.host ?? '127.0.0.1';
  let state: ServerState | undefined;
  if (values['state-dir'] !== undefined) {
    const directory = resolve(values['state-dir']);
    try {
      state = await loadServerState(directory, { https: !values.http, hosts: servingHosts(host) });
    } catch (error) {
      console.error(`local-cluster: --state-dir: ${(error as Error).message}`);
      return 1;
    }
  }
  let server: ApiServer;
  try {
    server = await ApiServer.start({
      ...(state === undefined
        ? {}
        : {
            adminToken: state.adminToken,
            ...(state.certificates === undefined ? {} : { certificates: state.certificates }),
          }),
      port,
      host,
      https: !values.http,
      rbac: values.rbac ?? false,
      historySize: history,
      historyFromStart: values['history-from-start'] ?? false,
      cluster: { podRunDurationMs, podExitCode },
    });
  } catch (error) {
    if (PortInUseError.isInstance(error))
      console.error(
        `local-cluster: port ${error.port} on ${error.host} is already in use (the port is set by --port, default 6443): stop the process listening there (lsof -i :${error.port} shows which), or pick another port with --port <n>, or --port 0 for any free one`,
      );
    else console.error(`local-cluster: could not start: ${(error as Error).message}`);
    return 1;
  }
  await server.writeKubeconfig(kubeconfig);
  console.log(`local-cluster: serving ${server.url}${server.rbac ? ' (RBAC enforced)' : ''}`);
  console.log(`local-cluster: kubeconfig written to ${kubeconfig}`);
  console.log(`local-cluster: try  kubectl --kubeconfig ${kubeconfig} get namespaces`);
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.stop();
  console.log('local-cluster: stopped');
  return 0;
}

function parse() {
  return parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      http: { type: 'boolean' },
      kubeconfig: { type: 'string' },
      rbac: { type: 'boolean' },
      'state-dir': { type: 'string' },
      history: { type: 'string' },
      'history-from-start': { type: 'boolean' },
      'pod-run-duration': { type: 'string' },
      'pod-exit-code': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('local-cluster: unexpected failure', error);
    process.exitCode = 1;
  },
);
