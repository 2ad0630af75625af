import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { imageFromEnvironment } from '../image-reference.js';
import { kubectl } from '../kubectl.js';
import { setManagerImage } from '../manager-image.js';
import type { OperatorProject } from '../operator-project.js';
import { parseVerbOptions, type Verb } from '../verb.js';

/**
 * Sets the manager's image in config/manager (as `kustomize edit set image`), renders
 * `overlay` (default config/default) and writes it to `out` (default
 * `<root>/dist/install.yaml`), as kubebuilder's make build-installer. Resolves with the
 * path written.
 *
 * @throws {OperatorCliError} when kubectl is missing or the overlay does not render.
 */
export async function buildInstaller(
  project: OperatorProject,
  options: { image?: string; overlay?: string; out?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  setManagerImage(options.image ?? imageFromEnvironment(project.defaultImage, env), project.root);
  const rendered = await kubectl(['kustomize', options.overlay ?? 'config/default'], {
    cwd: project.root,
    capture: true,
    env,
  });
  const out = options.out ?? join(project.root, 'dist', 'install.yaml');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, rendered);
  return out;
}

export const buildInstallerVerb: Verb = {
  name: 'build-installer',
  summary: 'write dist/install.yaml, all of config/default with the image from IMG',
  help: `Usage: [IMG=<image>] ops-operator build-installer [--overlay <dir>] [--out <file>]

Writes every object of config/default, with the image from IMG (default
<package name>:latest), to one file, as kubebuilder's make build-installer:
kubectl apply -f dist/install.yaml installs the operator. The operator's package.json runs
\`ops-operator manifests\` first.

Options:
  --overlay <dir>   the kustomize directory to render (default config/default; e.g.
                    config/default-no-certmanager)
  --out <file>      where to write (default dist/install.yaml)`,
  async run(argv, context) {
    const values = parseVerbOptions(this, argv, {
      overlay: { type: 'string' },
      out: { type: 'string' },
    });
    const project = context.project();
    const image = imageFromEnvironment(project.defaultImage, context.env);
    const out = await buildInstaller(project, {
      image,
      env: context.env,
      ...(values.overlay === undefined ? {} : { overlay: values.overlay }),
      ...(values.out === undefined ? {} : { out: resolve(context.cwd, values.out) }),
    });
    const fromCwd = relative(context.cwd, out);
    const shown = fromCwd.startsWith('..') || isAbsolute(fromCwd) ? out : fromCwd;
    context.stdout(`wrote ${shown} (image ${image}); install with: kubectl apply -f ${shown}\n`);
    return 0;
  },
};
