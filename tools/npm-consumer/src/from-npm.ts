/**
 * What the root README's "From npm" steps need to run as a new user's would, without
 * publishing: every public package packed (`pnpm pack`, as `pnpm publish` packs it), served by
 * a registry for the `@ops` scope on the loopback address (the other packages come from the
 * registry npm and pnpm are configured with), a fresh directory under the system's temporary
 * directory, outside the repository, and an environment with nothing of the repository's
 * pnpm in it.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';
import { type PackedPackage, packAll } from './pack-all.js';
import { ReadmeShell } from './readme-shell.js';
import { workedExampleSteps } from './worked-example.js';

/** A prepared run of the README's "From npm" steps. */
export interface FromNpm {
  /** The temporary directory everything happens in (outside the repository). */
  work: string;
  packed: PackedPackage[];
  registry: LocalRegistry;
  /** The user's environment: npm and pnpm pointed at {@link registry} for `@ops/*`. */
  env: NodeJS.ProcessEnv;
  /** The shell commands of the README between `<!-- <marker>:start -->` and `:end -->`. */
  steps(marker: string): string[];
  /** A user's shell in a new, empty directory `<work>/<name>`, with {@link env}. */
  shellIn(name: string): ReadmeShell;
  /** Stops the shells' background commands and the registry, and removes {@link work}. */
  close(): Promise<void>;
}

/**
 * Packs the public packages (built beforehand: the test task depends on their build) into a
 * fresh temporary directory and serves them.
 *
 * @throws Error when the temporary directory is inside the repository, or building or packing
 * fails (`pnpm pack-all` builds every public package first).
 */
export async function prepareFromNpm(workspaceRoot: string): Promise<FromNpm> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'ops-from-npm-')));
  if (!relative(realpathSync(workspaceRoot), work).startsWith('..')) {
    throw new Error(
      `the temporary directory ${work} is inside the repository: set TMPDIR elsewhere`,
    );
  }
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  const { packed } = packAll(workspaceRoot, tarballs);
  const registry = await startLocalRegistry(packed, work);
  const readme = readFileSync(join(workspaceRoot, 'README.md'), 'utf8');
  const env = userEnvironment(process.env, work, registry);
  const shells: ReadmeShell[] = [];
  return {
    work,
    packed,
    registry,
    env,
    steps: (marker) =>
      workedExampleSteps(readme, marker).flatMap((step) =>
        step.kind === 'command' ? [step.command] : [],
      ),
    shellIn: (name) => {
      const home = join(work, name);
      mkdirSync(home);
      const shell = new ReadmeShell(home, env);
      shells.push(shell);
      return shell;
    },
    close: async () => {
      await Promise.all(shells.map((shell) => shell.stop()));
      await registry.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/**
 * A new user's environment from this process's: without the variables of the pnpm, turbo
 * and vitest running the test (`npm_*`, `pnpm_*`, `TURBO_*`, `VITEST*`, NODE_OPTIONS,
 * NODE_ENV, colours, the plane this run is on), npm's cache in `work` (so `npm create` fetches
 * the packages just packed, never an earlier run's from npx's cache), no prompt (`npm create`
 * asks before installing when it has no terminal), `@ops/*` from the local registry (the
 * machine's `npm_config_registry` and `npm_config_cafile` kept for the rest), and the kubectl
 * the test command installed (`$KUBECTL`) first on PATH.
 * OPS_CONTROL_PLANE_CACHE and KUBEBUILDER_ASSETS pass through: where the real control
 * plane's binaries are.
 */
export function userEnvironment(
  env: NodeJS.ProcessEnv,
  work: string,
  registry: Pick<LocalRegistry, 'env'>,
): NodeJS.ProcessEnv {
  const user: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    const ours =
      /^(npm_|pnpm_|turbo_|vitest|NODE_OPTIONS$|NODE_ENV$|FORCE_COLOR$|FORCE_TTY$|OPS_ENVTEST_CONTROL_PLANE$)/i;
    // The machine's registry and its CA (CI behind a TLS-intercepting proxy) are the user's.
    const machine = /^npm_config_(registry|cafile)$/i;
    if (ours.test(name) && !machine.test(name)) {
      continue;
    }
    user[name] = value;
  }
  // kubectl as the test command found it, on PATH through a directory of its own: prepending
  // its directory (/usr/bin, say) would also put that directory's node before the pinned one.
  const kubectl = env.KUBECTL;
  if (kubectl) {
    const bin = join(work, 'bin');
    mkdirSync(bin, { recursive: true });
    const link = join(bin, 'kubectl');
    if (!existsSync(link)) symlinkSync(kubectl, link);
    user.PATH = `${bin}${delimiter}${user.PATH ?? ''}`;
  }
  return {
    ...user,
    ...registry.env,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_yes: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
}
