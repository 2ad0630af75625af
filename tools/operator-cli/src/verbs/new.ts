import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { readOperatorProject } from '../operator-project.js';
import { runCommand } from '../run-command.js';
import { kindArgumentOptions, type OperatorSpec, operatorSpec } from '../scaffold/operator-spec.js';
import {
  renderOperatorTemplates,
  renderTemplates,
  type TemplateFile,
} from '../scaffold/operator-templates.js';
import {
  findWorkspaceRoot,
  workspacePackages,
  workspaceVersions,
} from '../scaffold/workspace-versions.js';
import type { Verb } from '../verb.js';
import { generateOperatorArtifacts } from './manifests.js';

/** What {@link scaffoldOperator} writes and runs. */
export interface ScaffoldOptions {
  /** The pnpm workspace's root: the operator goes to `<workspace>/operators/<name>`. */
  workspace: string;
  /** Skip `pnpm install`, the build and the manifests: only the template files are written. */
  skipInstall?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Progress notes. Default: nowhere. */
  log?: (line: string) => void;
}

/** What {@link scaffoldOperator} wrote. */
export interface ScaffoldResult {
  /** The operator's directory. */
  directory: string;
  /** Every file written, relative to the workspace, with `/`. */
  files: string[];
}

/** pnpm: the one running this (npm_execpath, under `pnpm new-operator`), else `pnpm` on PATH. */
export function pnpmCommand(env: NodeJS.ProcessEnv): { command: string; args: string[] } {
  const execPath = env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) {
    return /\.(c?js|mjs)$/.test(execPath)
      ? { command: process.execPath, args: [execPath] }
      : { command: execPath, args: [] };
  }
  return { command: 'pnpm', args: [] };
}

/**
 * Writes a new operator for `spec` into `<workspace>/operators/<name>` and its image workflow
 * into `<workspace>/.github/workflows/<name>.yml`, from the package's templates, with the
 * dependency versions the workspace already uses. Then (unless `skipInstall`) links it with
 * `pnpm install`, formats it with the workspace's biome (when installed), builds it and
 * renders its generated manifests (config/crd/bases, config/rbac/role.yaml) with ops-manifests.
 *
 * Nothing is overwritten: the operator directory is written under a temporary name and
 * renamed into place, and the workflow is created exclusively.
 *
 * @throws {OperatorCliError} when the directory, the workflow or a package of that name
 * exists, a version cannot be taken from the workspace, or a later step fails (the files
 * stay; the message says what to run once the cause is fixed).
 */
export async function scaffoldOperator(
  spec: OperatorSpec,
  options: ScaffoldOptions,
): Promise<ScaffoldResult> {
  const { workspace } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const directory = join(workspace, 'operators', spec.name);
  const packages = workspacePackages(workspace);
  const taken = packages.find((pkg) => pkg.manifest.name === spec.name);
  if (existsSync(directory) || taken !== undefined) {
    throw new OperatorCliError(
      `${existsSync(directory) ? directory : taken?.directory} already exists (or a workspace package is named ${spec.name}); nothing was written. Choose another name, or remove it first.`,
    );
  }
  const versionOf = workspaceVersions(packages);
  const operatorFiles = renderOperatorTemplates(spec, versionOf);
  const workspaceFiles = renderTemplates('workspace', spec, versionOf);
  for (const file of workspaceFiles) {
    if (existsSync(join(workspace, file.path))) {
      throw new OperatorCliError(
        `${join(workspace, file.path)} already exists; nothing was written. Remove it, or choose another operator name.`,
      );
    }
  }

  const staging = join(workspace, 'operators', `.${spec.name}.new-${process.pid}`);
  try {
    await writeFiles(staging, operatorFiles);
    await rename(staging, directory);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  for (const file of workspaceFiles) {
    await mkdir(dirname(join(workspace, file.path)), { recursive: true });
    await writeFile(join(workspace, file.path), file.content, { flag: 'wx' });
  }
  const written = [
    ...operatorFiles.map((file) => `operators/${spec.name}/${file.path}`),
    ...workspaceFiles.map((file) => file.path),
  ];
  log(
    `wrote ${written.length} files: operators/${spec.name}/ and ${workspaceFiles.map((f) => f.path).join(', ')}`,
  );
  if (options.skipInstall) return { directory, files: written };

  await finishProject(directory, {
    packageManager: pnpmCommand(env),
    packageManagerName: 'pnpm',
    installDirectory: workspace,
    env,
    log,
    resume: `operators/${spec.name} is written. Fix the cause above, then run pnpm install and pnpm --dir operators/${spec.name} run manifests.`,
  });
  return { directory, files: written };
}

/** How {@link finishProject} runs the package manager, and where. */
export interface FinishOptions {
  /** The package manager's command (`pnpm`, `npm`, or node and its script). */
  packageManager: { command: string; args: string[] };
  /** Its name, for messages: `npm` or `pnpm`. */
  packageManagerName: 'npm' | 'pnpm';
  /** Where `install` runs: the workspace root, or the project itself. */
  installDirectory: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Appended to an error: what to run once its cause is fixed. */
  resume: string;
}

/**
 * Makes a freshly written operator work: `install` (in the workspace or the project), format
 * with the biome installed there (when there is one), build, and render its generated
 * manifests (config/crd/bases, config/rbac/role.yaml, and the webhook files) with
 * ops-manifests.
 *
 * @throws {OperatorCliError} when a step fails, with {@link FinishOptions.resume} added.
 */
export async function finishProject(directory: string, options: FinishOptions): Promise<void> {
  const { packageManager: pm, packageManagerName: name, installDirectory, env, log } = options;
  try {
    log(`${name} install`);
    await runCommand(pm.command, [...pm.args, 'install'], {
      cwd: installDirectory,
      env,
      what: name,
      install: `Install ${name}, or run ops-operator through it.`,
    });
    const biome = join(installDirectory, 'node_modules', '.bin', 'biome');
    if (existsSync(biome)) {
      await runCommand(biome, ['check', '--write', directory], {
        cwd: installDirectory,
        env,
        capture: true,
      });
    }
    log('building the operator and rendering its manifests with ops-manifests');
    await runCommand(pm.command, [...pm.args, 'run', 'build'], {
      cwd: directory,
      env,
      what: name,
    });
    const status = await generateOperatorArtifacts(readOperatorProject(directory), {
      env,
      stdout: log,
      stderr: log,
    });
    if (status !== 0)
      throw new OperatorCliError(`ops-operator manifests exited with status ${status}`);
  } catch (error) {
    if (!OperatorCliError.isInstance(error)) throw error;
    throw new OperatorCliError(`${error.message}\n${options.resume}`, { cause: error });
  }
}

/** Writes `files` under `root`, creating each exclusively (an existing file is an error). */
export async function writeFiles(root: string, files: readonly TemplateFile[]): Promise<void> {
  for (const file of files) {
    const path = join(root, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content, { flag: 'wx' });
  }
}

export const newVerb: Verb = {
  name: 'new',
  summary: 'write a new operator into operators/<name> (kubebuilder init + create api)',
  workspace: true,
  help: `Usage: ops-operator new <name> --group <group> --version <version> --kind <Kind>
                        [--namespaced | --cluster] [--plural <plural>] [--webhooks]
                        [--workspace <directory>] [--skip-install]

Writes a working operator into operators/<name> of the pnpm workspace (found from the
current directory up), as kubebuilder's init + create api: the API type (defineCustomResource,
TypeBox schema), a controller that sets the Ready condition with its RBAC, src/main.ts,
src/operator.ts, src/manifests.ts, the config/ kustomize tree (crd, rbac, manager, default,
samples), an end-to-end test on the local API server, a README, and the image workflow
.github/workflows/<name>.yml (the image is the workspace's shared operators/Dockerfile,
built with --build-arg OPERATOR=<name>). Dependencies take the versions the workspace uses.
With --webhooks, also defaulting and validating webhooks for the kind (src/webhook/) served over
TLS, and its config: config/webhook, config/certmanager, config/default-no-certmanager
(self-managed certificates) and config/self-managed-certs.
Then runs pnpm install, formats, builds and renders config/crd/bases and
config/rbac/role.yaml (and config/webhook/manifests.yaml, config/self-managed-certs/role.yaml)
with ops-manifests. Nothing existing is overwritten.

  <name>          the package and directory: lower case, ending in -operator (myjob-operator)
  --group         the API group, a DNS domain (batch.example.com)
  --version       the API version (v1, v1alpha1, v2beta1)
  --kind          the kind, PascalCase (MyJob)
  --namespaced    the kind's objects live in namespaces (the default)
  --cluster       the kind is cluster-scoped
  --plural        the resource name (default: the kind in lower case, made plural)
  --webhooks      admission webhooks: defaulting and validating webhooks and their config
  --workspace     the workspace root (default: found from the current directory up)
  --skip-install  write the files only (no install, build or manifests)

From the repository root: pnpm new-operator <name> --group ... (builds this CLI first).`,
  async run(argv, context) {
    let parsed: ReturnType<typeof parseNewArguments>;
    try {
      parsed = parseNewArguments(argv);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new OperatorCliError(`${message}\n\n${this.help}`);
    }
    const { values, positionals } = parsed;
    if (positionals.length > 1) {
      throw new OperatorCliError(
        `one operator name, got ${positionals.length} (${positionals.join(' ')})\n\n${this.help}`,
      );
    }
    const spec = operatorSpec({ ...values, name: positionals[0] });
    const workspace = findWorkspaceRoot(join(context.cwd, values.workspace ?? '.'));
    const result = await scaffoldOperator(spec, {
      workspace,
      skipInstall: values['skip-install'] === true,
      env: context.env,
      log: (line) => context.stderr(`new: ${line.replace(/\n$/, '')}\n`),
    });
    const where = relative(context.cwd, result.directory) || '.';
    context.stdout(
      `${spec.name}: ${spec.kind} (${spec.group}/${spec.version}, ${spec.scope}) in ${where}\n` +
        `Next: cd ${where} && pnpm test; commit it with pnpm-lock.yaml and .github/workflows/${spec.name}.yml.\n`,
    );
    return 0;
  },
};

function parseNewArguments(argv: readonly string[]) {
  return parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      ...kindArgumentOptions,
      webhooks: { type: 'boolean' },
      workspace: { type: 'string' },
      'skip-install': { type: 'boolean' },
    },
  });
}
