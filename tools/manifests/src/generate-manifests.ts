/**
 * Writing (or checking) an operator's generated manifests in its directory.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ControllerKinds } from '@ops/core/controller';
import { PolicyRuleError } from '@ops/core/crd';
import { controllerKindsOf } from '@ops/core/operator';
import { ManifestsError } from './errors/manifests-error.js';
import { loadManifestModule, type ManifestModule } from './load-manifest-module.js';
import {
  crdDirectory,
  type GeneratedFile,
  generatedHeader,
  renderManifests,
} from './render-manifests.js';
import { unifiedDiff } from './unified-diff.js';

/** Options of {@link generateManifests}. */
export interface GenerateManifestsOptions {
  /** The manifest module, a `.js`/`.mjs` path relative to `cwd`: `dist/manifests.js`. */
  module: string;
  /** The directory that receives `config/...`, relative to `cwd`. Default: `cwd`. */
  out?: string;
  /** Compare instead of writing: nothing is changed on disk. */
  check?: boolean;
  /** The directory relative paths start from. Default `process.cwd()`. */
  cwd?: string;
}

/** What happened (or, with `check`, would happen) to one file. */
export type FileStatus = 'created' | 'updated' | 'unchanged' | 'removed';

/** One generated (or stale) file and its status. */
export interface FileOutcome {
  /** Relative to the output directory, with `/`. */
  path: string;
  status: FileStatus;
  /** With `check`, the diff from the file on disk to the generated content; else empty. */
  diff: string;
}

/** The result of {@link generateManifests}. */
export interface GenerateManifestsResult {
  /** The absolute output directory. */
  out: string;
  /** Generated files in order, then stale files (removed, or to remove). */
  files: FileOutcome[];
  /** Whether any file differs from what is on disk (before writing). */
  changed: boolean;
}

/**
 * Renders the manifests of the module (see `renderManifests`) into `out`. Without `check`,
 * writes each file whose content differs (creating directories) and removes stale files:
 * `.yaml` files in `config/crd/bases/` that start with the generated header but are no
 * longer produced; files without the header are never touched. With `check`, writes and
 * removes nothing and returns a unified diff for every file that differs or would be
 * removed.
 *
 * When the module exports `operator`, its `setup` is run on a manager that never starts
 * (`controllerKindsOf` of `@ops/core/operator`) and the rules its controllers' owner
 * references need are added to the ClusterRole (see `renderManifests`).
 *
 * @throws {ManifestsError} when the module cannot be loaded (see `loadManifestModule`), the
 * operator's setup fails, an owning controller's kind is not among `customResources`, or a
 * file cannot be read or written (the path and the system's reason).
 */
export async function generateManifests(
  options: GenerateManifestsOptions,
): Promise<GenerateManifestsResult> {
  const cwd = options.cwd ?? process.cwd();
  const out = resolve(cwd, options.out ?? '.');
  const module = await loadManifestModule(options.module, cwd);
  const generated = await renderModule(module, options.module);
  const check = options.check === true;

  const files: FileOutcome[] = [];
  for (const file of generated) {
    const current = await readIfExists(join(out, file.path));
    const status: FileStatus =
      current === undefined ? 'created' : current === file.content ? 'unchanged' : 'updated';
    const diff =
      check && status !== 'unchanged'
        ? unifiedDiff(current ?? '', file.content, {
            oldLabel: current === undefined ? '/dev/null' : `a/${file.path}`,
            newLabel: `b/${file.path}`,
          })
        : '';
    if (!check && status !== 'unchanged') await writeGenerated(out, file);
    files.push({ path: file.path, status, diff });
  }

  const produced = new Set(generated.map((file) => file.path));
  for (const stale of await staleFiles(out, produced)) {
    const diff = check
      ? unifiedDiff(stale.content, '', { oldLabel: `a/${stale.path}`, newLabel: '/dev/null' })
      : '';
    if (!check) await removeFile(join(out, stale.path));
    files.push({ path: stale.path, status: 'removed', diff });
  }
  return { out, files, changed: files.some((file) => file.status !== 'unchanged') };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ManifestsError(`cannot read ${path}: ${reasonOf(error)}`, { cause: error });
  }
}

async function writeGenerated(out: string, file: GeneratedFile): Promise<void> {
  const path = join(out, file.path);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content, 'utf8');
  } catch (error) {
    throw new ManifestsError(`cannot write ${path}: ${reasonOf(error)}`, { cause: error });
  }
}

async function removeFile(path: string): Promise<void> {
  try {
    await rm(path);
  } catch (error) {
    throw new ManifestsError(`cannot remove stale ${path}: ${reasonOf(error)}`, { cause: error });
  }
}

/** Generated CRD files (by their header) that the module no longer produces. */
async function staleFiles(
  out: string,
  produced: ReadonlySet<string>,
): Promise<{ path: string; content: string }[]> {
  const directory = join(out, crdDirectory);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ManifestsError(`cannot list ${directory}: ${reasonOf(error)}`, { cause: error });
  }
  const stale: { path: string; content: string }[] = [];
  for (const name of names.sort()) {
    const path = `${crdDirectory}/${name}`;
    if (!name.endsWith('.yaml') || produced.has(path)) continue;
    const content = await readIfExists(join(out, path));
    if (content?.startsWith(`${generatedHeader}\n`)) stale.push({ path, content });
  }
  return stale;
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a parent is not a directory';
  if (code === 'EISDIR') return 'is a directory';
  return error instanceof Error ? error.message : String(error);
}

/** Renders `module` with the controllers of its `operator`; `label` names it in errors. */
async function renderModule(module: ManifestModule, label: string): Promise<GeneratedFile[]> {
  let controllers: ControllerKinds[] = [];
  if (module.operator !== undefined) {
    try {
      controllers = await controllerKindsOf(module.operator);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ManifestsError(`${label}: \`operator\`: ${message}`, { cause: error });
    }
  }
  try {
    return renderManifests(module, controllers);
  } catch (error) {
    if (!PolicyRuleError.isInstance(error)) throw error;
    throw new ManifestsError(`${label}: ${error.message}`, { cause: error });
  }
}
