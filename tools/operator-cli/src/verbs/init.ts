import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import {
  kindArgumentOptions,
  type OperatorSpec,
  operatorSpec,
  type PackageManager,
} from '../scaffold/operator-spec.js';
import { packageManagerValues, renderOperatorTemplates } from '../scaffold/operator-templates.js';
import { publishedVersions } from '../scaffold/workspace-versions.js';
import type { Verb } from '../verb.js';
import { finishProject, pnpmCommand, writeFiles } from './new.js';

/** What {@link initOperator} writes and runs. */
export interface InitOptions {
  /** The project directory: created when missing, refused when it holds anything but `.git`. */
  directory: string;
  /** Skip the install, the build and the manifests: only the template files are written. */
  skipInstall?: boolean;
  /** The versions to depend on. Default: {@link publishedVersions}. */
  versionOf?: (dependency: string) => string;
  env?: NodeJS.ProcessEnv;
  /** Progress notes. Default: nowhere. */
  log?: (line: string) => void;
}

/**
 * The package manager a new project is for: `flag` when given, else the one running this
 * command (`npm_config_user_agent`, which npm, npx, `npm create`, pnpm and `pnpm dlx` set),
 * else npm.
 *
 * @throws {OperatorCliError} for a flag that is neither npm nor pnpm, or when yarn or bun
 * runs it without a flag (their lockfiles and scripts are not scaffolded).
 */
export function detectPackageManager(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): PackageManager {
  if (flag !== undefined) {
    if (flag === 'npm' || flag === 'pnpm') return flag;
    throw new OperatorCliError(
      `--package-manager "${flag}" is not one ops-operator scaffolds: pass npm or pnpm`,
    );
  }
  const agent = env.npm_config_user_agent ?? '';
  if (agent.startsWith('pnpm/')) return 'pnpm';
  if (agent === '' || agent.startsWith('npm/')) return 'npm';
  const name = agent.split('/')[0];
  throw new OperatorCliError(
    `${name} runs this, but ops-operator scaffolds npm and pnpm projects only: pass --package-manager npm or --package-manager pnpm`,
  );
}

/** The entries of `directory` that make it not empty (all but `.git`), sorted. */
export function directoryEntries(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((entry) => entry !== '.git')
    .sort();
}

/**
 * Writes a standalone operator for `spec` (layout `standalone`) into `options.directory`,
 * kubebuilder's `init` plus its first `create api`: its own package.json with the published
 * `@ops/*` packages as semver ranges, its own tsconfig, tsup, vitest and biome config, a
 * Dockerfile whose build context is the project, the config/ kustomize tree, an image
 * workflow, a README and the kind's API, controller, sample and tests (and with
 * `spec.webhooks`, its webhooks and their config). Then (unless `skipInstall`) installs
 * with `spec.packageManager`, formats, builds and renders the generated manifests.
 *
 * @throws {OperatorCliError} when the directory holds anything but `.git` (naming what;
 * nothing is written), or a later step fails (the files stay; the message says what to run
 * once the cause is fixed).
 */
export async function initOperator(
  spec: OperatorSpec,
  options: InitOptions,
): Promise<{ directory: string; files: string[] }> {
  const directory = resolve(options.directory);
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const entries = directoryEntries(directory);
  if (entries.length > 0) {
    const shown = entries.slice(0, 10).join(', ') + (entries.length > 10 ? ', ...' : '');
    throw new OperatorCliError(
      `${directory} is not empty (${shown}); ops-operator init writes a new project only into an empty directory (a .git may be there) and overwrites nothing. Run it in a new directory (ops-operator init <directory> ...), or, to add a kind to an existing operator, run ops-operator create api in it.`,
    );
  }
  const files = renderOperatorTemplates(spec, options.versionOf ?? publishedVersions());
  await mkdir(directory, { recursive: true });
  await writeFiles(directory, files);
  log(`wrote ${files.length} files into ${directory}`);
  const written = files.map((file) => file.path);
  if (options.skipInstall) return { directory, files: written };
  const commands = packageManagerValues(spec.packageManager);
  await finishProject(directory, {
    packageManager: spec.packageManager === 'pnpm' ? pnpmCommand(env) : npmCommand(env),
    packageManagerName: spec.packageManager,
    installDirectory: directory,
    env,
    log,
    resume: `${directory} is written. Fix the cause above, then run ${commands.install} and ${commands.run} manifests there.`,
  });
  return { directory, files: written };
}

/** npm: the one running this (npm_execpath of npm-cli.js, under npm or npx), else `npm`. */
export function npmCommand(env: NodeJS.ProcessEnv): { command: string; args: string[] } {
  const execPath = env.npm_execpath;
  if (execPath && /npm-cli\.js$/.test(execPath)) {
    return { command: process.execPath, args: [execPath] };
  }
  return { command: 'npm', args: [] };
}

export const initHelp = `Usage: ops-operator init [<directory>] --group <group> --version <version> --kind <Kind>
                         [--name <name>] [--namespaced | --cluster] [--plural <plural>]
                         [--webhooks] [--package-manager npm|pnpm] [--skip-install]
   or: npm create @ops/operator [<directory>] -- --group ... (the same, through npm)

Writes a standalone operator into <directory> (default: the current one), which must be
empty (a .git may be there): kubebuilder's init + create api in one step. It gets its own
package.json (the published @ops/* packages as ^ ranges), tsconfig, tsup, vitest and biome
config, a Dockerfile whose build context is the project, the config/ kustomize tree (crd,
rbac, manager, default, samples), .github/workflows/image.yml, a README, and the kind's API
type, controller, sample, end-to-end test. With --webhooks also the kind's defaulting and
validating webhooks and their config (config/webhook, config/certmanager,
config/default-no-certmanager, config/self-managed-certs). Then installs, formats, builds
and renders config/crd/bases and config/rbac/role.yaml with ops-manifests.

  <directory>        where to write (created when missing)
  --name             the operator's name (default: the directory's name); it must end in -operator
  --group            the API group, a DNS domain (batch.example.com)
  --version          the API version (v1, v1alpha1, v2beta1)
  --kind             the kind, PascalCase (MyJob)
  --namespaced       the kind's objects live in namespaces (the default)
  --cluster          the kind is cluster-scoped
  --plural           the resource name (default: the kind in lower case, made plural)
  --webhooks         the kind's admission webhooks (defaulting and validating)
  --package-manager  npm or pnpm (default: the one running ops-operator, else npm)
  --skip-install     write the files only (no install, build or manifests)

More kinds and webhooks later: ops-operator create api / create webhook.`;

export const initVerb: Verb = {
  name: 'init',
  summary:
    'write a standalone operator project into an empty directory (kubebuilder init + create api)',
  workspace: true,
  help: initHelp,
  async run(argv, context) {
    let parsed: ReturnType<typeof parseInitArguments>;
    try {
      parsed = parseInitArguments(argv);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new OperatorCliError(`${message}\n\n${this.help}`);
    }
    const { values, positionals } = parsed;
    if (positionals.length > 1) {
      throw new OperatorCliError(
        `one directory, got ${positionals.length} (${positionals.join(' ')})\n\n${this.help}`,
      );
    }
    const directory = resolve(context.cwd, positionals[0] ?? '.');
    const packageManager = detectPackageManager(values['package-manager'], context.env);
    const name = values.name ?? basename(directory);
    let spec: OperatorSpec;
    try {
      spec = operatorSpec({ ...values, name, layout: 'standalone', packageManager });
    } catch (error) {
      if (values.name !== undefined || !OperatorCliError.isInstance(error)) throw error;
      if (!error.message.includes(`"${name}"`)) throw error;
      throw new OperatorCliError(
        `${error.message} (init takes the name from the directory, ${directory}: pass --name <name>-operator, or name the directory so)`,
      );
    }
    const result = await initOperator(spec, {
      directory,
      skipInstall: values['skip-install'] === true,
      env: context.env,
      log: (line) => context.stderr(`init: ${line.replace(/\n$/, '')}\n`),
    });
    const where = relative(context.cwd, result.directory) || '.';
    const commands = packageManagerValues(packageManager);
    const cd = where === '.' ? '' : `cd ${where} && `;
    context.stdout(
      `${spec.name}: ${spec.kind} (${spec.group}/${spec.version}, ${spec.scope}) in ${where}, for ${packageManager}\n` +
        `Next: ${cd}${values['skip-install'] ? `${commands.install} && ${commands.run} manifests && ` : ''}${commands.pm} test; commit it with ${commands.lockfile}.\n`,
    );
    return 0;
  },
};

function parseInitArguments(argv: readonly string[]) {
  return parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      ...kindArgumentOptions,
      webhooks: { type: 'boolean' },
      'package-manager': { type: 'string' },
      'skip-install': { type: 'boolean' },
    },
  });
}
