import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { kustomize } from '../kubectl.js';
import { grafanaDashboard, observabilityHeader, prometheusOverlay } from '../observability.js';
import { type OperatorProject, readOperatorProject } from '../operator-project.js';
import { runCommand } from '../run-command.js';
import { parseVerbOptions, type Verb } from '../verb.js';
import { reportChart, syncGeneratedFiles, writeHelmChart } from './helm.js';

/** The operator's manifest module, its build output (`src/manifests.ts` bundled). */
export const manifestModule = join('dist', 'manifests.js');

/**
 * Builds the operator: in a turbo workspace `turbo run build --filter=<package>...` from the
 * workspace root (so the workspace packages it uses are built first, from turbo's cache when
 * unchanged), otherwise `npm run build` in the operator's directory.
 *
 * @throws {OperatorCliError} when the build fails (its output has been shown).
 */
export async function buildOperator(
  project: OperatorProject,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const workspace = project.buildContext;
  if (workspace !== project.root && existsSync(join(workspace, 'turbo.json'))) {
    const local = join(workspace, 'node_modules', '.bin', 'turbo');
    await runCommand(
      existsSync(local) ? local : 'turbo',
      ['run', 'build', `--filter=${project.packageName}...`, '--output-logs=errors-only'],
      { cwd: workspace, env, install: `Run pnpm install in ${workspace}.` },
    );
    return;
  }
  await runCommand('npm', ['run', 'build'], { cwd: project.root, env });
}

/**
 * Writes (or with `check`, compares) config/crd/bases and config/rbac/role.yaml from the
 * operator's dist/manifests.js with `ops-manifests` (@ops/manifests), and resolves with its
 * exit status: 0 done / up to date, 1 out of date (`check`; the diff is printed), 2 error.
 */
export async function generateOperatorManifests(
  project: OperatorProject,
  options: { check?: boolean; stdout?: (text: string) => void; stderr?: (text: string) => void },
): Promise<number> {
  const { main } = await import('@ops/manifests');
  const args = ['--module', manifestModule, '--out', '.', ...(options.check ? ['--check'] : [])];
  return main(args, {
    cwd: project.root,
    ...(options.stdout ? { stdout: options.stdout } : {}),
    ...(options.stderr ? { stderr: options.stderr } : {}),
  });
}

export const manifestsVerb: Verb = {
  name: 'manifests',
  summary: 'build, then regenerate config/crd/bases and config/rbac (role.yaml, metrics roles)',
  help: `Usage: ops-operator manifests [--check]

Builds the operator (turbo in a workspace, else npm run build), then writes its
CustomResourceDefinitions (config/crd/bases/) and ClusterRole (config/rbac/role.yaml) from
dist/manifests.js (exports \`customResources\` and \`rbac\`), as kubebuilder's make manifests,
and the secured metrics' roles (config/rbac/metrics_auth_role.yaml, its binding, and
metrics_reader_role.yaml). Then writes the Helm chart in chart/ from config/default (see
ops-operator helm), the config/prometheus overlay (a ServiceMonitor: kubectl apply -k
config/prometheus) and the Grafana dashboard grafana/controller-runtime-metrics.json.

Options:
  --check   build nothing, write nothing: exit 1 with a diff when a file is out of date
            (for lint; the operator must have been built)`,
  async run(argv, context) {
    const { check } = parseVerbOptions(this, argv, { check: { type: 'boolean' } });
    const project = context.project();
    if (!check) await buildOperator(project, context.env);
    return generateOperatorArtifacts(project, {
      check: check === true,
      env: context.env,
      stdout: context.stdout,
      stderr: context.stderr,
    });
  },
};

/**
 * Everything `manifests` generates for a built operator, in order: the CRDs and RBAC
 * (ops-manifests, {@link generateOperatorManifests}), then the Helm chart in chart/ from
 * `kubectl kustomize config/default`, the config/prometheus overlay and the Grafana dashboard.
 * With `check`, writes nothing and compares. Resolves with the exit status: 0 done / up to
 * date, 1 out of date (`check`; what differs is printed), 2 an ops-manifests error. `new`,
 * `init` and `create` call it too, so a scaffolded operator starts with every generated file
 * and `manifests --check` checks them all.
 */
export async function generateOperatorArtifacts(
  project: OperatorProject,
  options: {
    check?: boolean;
    env?: NodeJS.ProcessEnv;
    stdout: (text: string) => void;
    stderr: (text: string) => void;
  },
): Promise<number> {
  const check = options.check === true;
  const status = await generateOperatorManifests(project, {
    check,
    stdout: options.stdout,
    stderr: options.stderr,
  });
  if (status !== 0) return status;
  // Read again: the manifests just written (config/webhook/manifests.yaml) may declare the
  // webhooks a new operator's project did not have yet, and the chart and dashboard follow them.
  const generated = check ? project : readOperatorProject(project.root);
  const context = { stdout: options.stdout, stderr: options.stderr };
  const chart = await writeHelmChart(generated, { check, env: options.env });
  let failed = reportChart(chart, check, context);
  const monitoring = await syncGeneratedFiles(
    project.root,
    [
      ...prometheusOverlay(generated, await kustomize(project.root, 'config/default', options.env)),
      grafanaDashboard(generated),
    ],
    { check, staleIn: [], header: observabilityHeader },
  );
  failed |= reportChart(monitoring, check, context, 'monitoring (config/prometheus, grafana)');
  return failed;
}
