import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chartDirectory, chartHeader, renderHelmChart } from '../helm-chart.js';
import { kustomize } from '../kubectl.js';
import type { OperatorProject } from '../operator-project.js';
import { usesSelfManagedCertificates } from '../self-managed-certificates.js';
import { parseVerbOptions, type Verb } from '../verb.js';
import { noCertManagerOverlay } from './webhook-local.js';

/** What {@link writeHelmChart} found: the files that differ (or were written) and why. */
export interface HelmChartResult {
  /** Paths relative to the operator root, with what happened (would happen with `check`). */
  changed: { path: string; status: 'created' | 'updated' | 'removed' }[];
  /** Every file of the chart. */
  files: string[];
}

/**
 * Renders config/default (`kubectl kustomize`) and writes the operator's Helm chart to
 * `chart/` (see `renderHelmChart`), removing generated files it no longer makes; with
 * `check`, writes nothing and reports what differs. An operator with webhooks whose
 * config/default-no-certmanager runs it with `--webhook-cert-mode=self-managed` gets the
 * chart's self-managed certificate mode from that overlay's render.
 *
 * @throws {OperatorCliError} when kubectl is missing or config/default does not render, or
 * as `renderHelmChart`.
 */
export async function writeHelmChart(
  project: OperatorProject,
  options: { check?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<HelmChartResult> {
  const objects = await kustomize(project.root, 'config/default', options.env);
  let selfManaged: Awaited<ReturnType<typeof kustomize>> | undefined;
  if (project.webhooks && existsSync(join(project.root, noCertManagerOverlay))) {
    const rendered = await kustomize(project.root, noCertManagerOverlay, options.env);
    if (usesSelfManagedCertificates(rendered)) selfManaged = rendered;
  }
  return syncGeneratedFiles(project.root, renderHelmChart(project, objects, selfManaged), {
    check: options.check === true,
    staleIn: [
      `${chartDirectory}/templates`,
      `${chartDirectory}/templates/tests`,
      `${chartDirectory}/crds`,
    ],
    header: chartHeader,
  });
}

/**
 * Writes `files` under `root` where their content differs (with `check`, writes nothing) and
 * removes the files in the `staleIn` directories that contain `header` but are no longer
 * among them. Resolves with what changed (would change) and every file's path.
 */
export async function syncGeneratedFiles(
  root: string,
  files: readonly { path: string; content: string }[],
  options: { check: boolean; staleIn: readonly string[]; header: string },
): Promise<HelmChartResult> {
  const changed: HelmChartResult['changed'] = [];
  for (const file of files) {
    const path = join(root, file.path);
    const current = await readFile(path, 'utf8').catch(() => undefined);
    if (current === file.content) continue;
    changed.push({ path: file.path, status: current === undefined ? 'created' : 'updated' });
    if (options.check) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
  const produced = new Set(files.map((file) => file.path));
  for (const directory of options.staleIn) {
    const names = await readdir(join(root, directory)).catch(() => []);
    for (const name of names.sort()) {
      const path = `${directory}/${name}`;
      if (produced.has(path)) continue;
      const content = await readFile(join(root, path), 'utf8').catch(() => '');
      if (!content.includes(options.header)) continue;
      changed.push({ path, status: 'removed' });
      if (!options.check) await rm(join(root, path));
    }
  }
  return { changed, files: files.map((file) => file.path) };
}

export const helmVerb: Verb = {
  name: 'helm',
  summary: 'write chart/, a Helm chart made from config/default (manifests runs it too)',
  help: `Usage: ops-operator helm [--check]

Renders config/default with kubectl kustomize and writes the operator's Helm chart to
chart/, as kubebuilder's helm plugin does: the CRDs in chart/crds/ (Helm installs them first
and never deletes them), every other object as a template with the release's namespace and
Helm's labels, and values for the image, replicas, resources, leader election, metrics
(secure or not), webhook certificates (made by the operator itself, the default when
config/default-no-certmanager runs it with --webhook-cert-mode=self-managed, so the chart
installs on any cluster; cert-manager, as config/default; or a provided Secret),
nodeSelector, tolerations, affinity and the Pod's security contexts; and a chart test
(templates/tests: \`helm test\` runs a Pod that reads the metrics Service, 401 without a token,
the page with a metrics-reader token). Chart.yaml's version and appVersion
are the operator's package.json version. \`ops-operator manifests\` regenerates it;
\`manifests --check\` fails when it is out of date.

Install: helm install <release> chart -n <namespace> --create-namespace

Options:
  --check   write nothing: exit 1 listing the files that are out of date`,
  async run(argv, context) {
    const { check } = parseVerbOptions(this, argv, { check: { type: 'boolean' } });
    const project = context.project();
    const result = await writeHelmChart(project, { check: check === true, env: context.env });
    return reportChart(result, check === true, context);
  },
};

/** Prints what changed (or is out of date, with `check`); resolves with the exit status. */
export function reportChart(
  result: HelmChartResult,
  check: boolean,
  context: { stdout(text: string): void; stderr(text: string): void },
  what = 'helm chart',
): number {
  if (check) {
    if (result.changed.length === 0) {
      context.stdout(`${what}: ${result.files.length} file(s) up to date\n`);
      return 0;
    }
    context.stderr(
      `${what} out of date:\n${result.changed.map((c) => `  ${c.path} ${c.status === 'created' ? 'is missing' : c.status === 'removed' ? 'is no longer generated' : 'differs'}\n`).join('')}Regenerate with: ops-operator manifests (or ops-operator helm)\n`,
    );
    return 1;
  }
  for (const change of result.changed)
    context.stdout(`${change.status.padEnd(9)} ${change.path}\n`);
  if (result.changed.length === 0)
    context.stdout(`helm chart: ${result.files.length} file(s) unchanged\n`);
  return 0;
}
