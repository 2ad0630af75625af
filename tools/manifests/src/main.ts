/**
 * The `ops-manifests` command, as a function: parse arguments, generate or check, report.
 */
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ManifestsError } from './errors/manifests-error.js';
import { generateManifests } from './generate-manifests.js';

/** Where {@link main} writes and which directory it starts from. */
export interface MainIo {
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Receives normal output (reports, diffs). Default: `process.stdout`. */
  stdout?: (text: string) => void;
  /** Receives errors and the check summary. Default: `process.stderr`. */
  stderr?: (text: string) => void;
}

export const usage = `Usage: ops-manifests --module <path> [--out <dir>] [--check]

Generates an operator's CustomResourceDefinitions, RBAC and webhook configurations from its TypeScript:
  <out>/config/crd/bases/<group>_<plural>.yaml   one per definition in \`customResources\`
  <out>/config/rbac/role.yaml                    ClusterRole (default name manager-role) from \`rbac\`
  <out>/config/webhook/manifests.yaml            webhook configurations from \`webhooks\` (if exported)
  <out>/config/self-managed-certs/role.yaml      Role and ClusterRole from \`selfManagedCertificateRbac\` (if exported)

Options:
  -m, --module <path>  the manifest module, JavaScript (.js or .mjs); for a TypeScript
                       operator, its build output, e.g. dist/manifests.js
  -o, --out <dir>      the operator's root directory (default: the current directory)
      --check          write nothing; exit 1 and print a diff if any file is out of date
  -h, --help           show this help

Exit status: 0 done (or up to date), 1 out of date (--check), 2 error.`;

/**
 * Runs `ops-manifests` with `argv` (the arguments after the command name) and returns its
 * exit status: 0 when the files were written or (with `--check`) are up to date, 1 when
 * `--check` found a difference (each differing file's diff is printed), 2 for a usage
 * error or a {@link ManifestsError} (printed as `ops-manifests: <message>`). Never calls
 * `process.exit`; other errors (bugs) are thrown.
 */
export async function main(argv: readonly string[], io: MainIo = {}): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const stdout = io.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text: string) => process.stderr.write(text));
  try {
    const args = parseArguments(argv);
    if (args.help) {
      stdout(`${usage}\n`);
      return 0;
    }
    const result = await generateManifests({
      module: args.module,
      out: args.out,
      check: args.check,
      cwd,
    });
    const shown = (path: string) => relative(cwd, join(result.out, path)) || path;
    if (args.check) {
      const stale = result.files.filter((file) => file.status !== 'unchanged');
      for (const file of stale) stdout(file.diff);
      if (stale.length > 0) {
        const verb = { created: 'is missing', updated: 'differs', removed: 'is stale' } as const;
        const lines = stale.map(
          (file) => `  ${shown(file.path)} ${verb[file.status as keyof typeof verb]}`,
        );
        stderr(
          `ops-manifests: ${stale.length} generated file(s) out of date:\n${lines.join('\n')}\nRegenerate with: ops-manifests --module ${args.module}${args.out === undefined ? '' : ` --out ${args.out}`}\n`,
        );
        return 1;
      }
      stdout(`ops-manifests: ${result.files.length} file(s) up to date\n`);
      return 0;
    }
    for (const file of result.files) stdout(`${file.status.padEnd(9)} ${shown(file.path)}\n`);
    return 0;
  } catch (error) {
    if (!ManifestsError.isInstance(error)) throw error;
    stderr(`ops-manifests: ${error.message}\n`);
    return 2;
  }
}

interface Arguments {
  module: string;
  out: string | undefined;
  check: boolean;
  help: boolean;
}

function parseArguments(argv: readonly string[]): Arguments {
  let values: { module?: string; out?: string; check?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        module: { type: 'string', short: 'm' },
        out: { type: 'string', short: 'o' },
        check: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ManifestsError(`${message}\n\n${usage}`);
  }
  const help = values.help === true;
  if (!help && (values.module === undefined || values.module === '')) {
    throw new ManifestsError(`--module is required\n\n${usage}`);
  }
  return { module: values.module ?? '', out: values.out, check: values.check === true, help };
}
