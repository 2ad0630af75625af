// Helpers shared by the Makefile-verb scripts (package.json: manifests, install-crds, deploy,
// run, build-installer, docker-build ...): where the operator lives, running kubectl and
// docker with errors that say what to do, and the kustomize names of config/default.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import YAML from 'yaml';

/** The operator's directory (operators/application-operator). */
export const operatorRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The repository root: the Docker build context. */
export const repositoryRoot = resolve(operatorRoot, '..', '..');

/** The image `pnpm run deploy` and friends use when IMG is not set. */
export const defaultImage = 'application-operator:latest';

/** Names config/default gives the objects (namePrefix + namespace in its kustomization). */
export const deployment = {
  namespace: 'application-operator-system',
  prefix: 'application-operator-',
  webhookService: 'application-operator-webhook-service',
  webhookSecret: 'webhook-server-cert',
  mutatingWebhookConfiguration: 'application-operator-mutating-webhook-configuration',
  validatingWebhookConfiguration: 'application-operator-validating-webhook-configuration',
};

/** The DNS names the API server checks the webhook's certificate against. */
export function webhookServiceDnsNames(
  service = deployment.webhookService,
  namespace = deployment.namespace,
) {
  return [`${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`];
}

/** A failure the user can fix; scripts print its message alone, without a stack. */
export class ScriptError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ScriptError';
  }

  /** Whether `error` is a ScriptError (by name: works across copies of this module). @param {unknown} error @returns {error is ScriptError} */
  static isScriptError(error) {
    return error instanceof Error && error.name === 'ScriptError';
  }
}

/**
 * @typedef {object} RunOptions
 * @property {string} [cwd]
 * @property {string} [input] text written to the command's stdin
 * @property {boolean} [capture] return stdout instead of passing it through (default false)
 * @property {NodeJS.ProcessEnv} [env]
 */

/**
 * Runs `command` and resolves with its stdout (empty unless `capture`).
 *
 * @param {string} command
 * @param {string[]} args
 * @param {RunOptions & { what?: string, install?: string }} [options] `what` names the tool
 *   in errors, `install` says how to get it when it is missing
 * @returns {Promise<string>}
 * @throws {ScriptError} when the command is missing, or exits non-zero (with its stderr).
 */
export function run(command, args, options = {}) {
  const what = options.what ?? command;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? operatorRoot,
      env: options.env ?? process.env,
      stdio: [
        options.input === undefined ? 'inherit' : 'pipe',
        options.capture ? 'pipe' : 'inherit',
        options.capture ? 'pipe' : 'inherit',
      ],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', (error) => {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') {
        reject(
          new ScriptError(
            `${what} not found: "${command}" is not on PATH.${options.install ? ` ${options.install}` : ''}`,
          ),
        );
      } else {
        reject(new ScriptError(`${what} could not be started: ${error.message}`));
      }
    });
    child.once('close', (code, signal) => {
      if (code === 0) {
        resolvePromise(stdout);
        return;
      }
      const detail = stderr.trim();
      reject(
        new ScriptError(
          `${[command, ...args].join(' ')} failed (exit ${code ?? signal})${detail ? `:\n${detail}` : ''}`,
        ),
      );
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** The kubectl to run: $KUBECTL, else `kubectl` from PATH. */
export function kubectlCommand() {
  return process.env.KUBECTL || 'kubectl';
}

/**
 * Runs kubectl against the current kubeconfig (KUBECONFIG or ~/.kube/config, as kubectl
 * finds it) and resolves with its stdout when `capture`.
 *
 * @param {string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<string>}
 */
export function kubectl(args, options = {}) {
  return run(kubectlCommand(), args, {
    ...options,
    what: 'kubectl',
    install:
      'Install kubectl (https://kubernetes.io/docs/tasks/tools/) or set KUBECTL to its path.',
  });
}

/**
 * The objects `kubectl kustomize <dir>` renders, parsed.
 *
 * @param {string} directory relative to the operator's directory, e.g. `config/default`
 * @param {string} [root] the operator's directory
 * @returns {Promise<Record<string, any>[]>}
 */
export async function kustomize(directory, root = operatorRoot) {
  const text = await kubectl(['kustomize', join(root, directory)], { capture: true });
  return YAML.parseAllDocuments(text)
    .map((document) => document.toJS())
    .filter((object) => object !== null && object !== undefined);
}

/** Serialises objects as a multi-document YAML stream. @param {unknown[]} objects */
export function toYamlStream(objects) {
  return objects.map((object) => YAML.stringify(object)).join('---\n');
}

/**
 * The image to use: $IMG, else `application-operator:latest`.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function imageFromEnvironment(env = process.env) {
  return env.IMG || defaultImage;
}

/**
 * Splits an image reference into kustomize's `images` fields, as `kustomize edit set image
 * controller=<image>` does: `registry:5000/name:tag` -> newName + newTag, `name@sha256:...`
 * -> newName + digest.
 *
 * @param {string} image
 * @returns {{ newName: string, newTag?: string, digest?: string }}
 * @throws {ScriptError} for an empty image or one with spaces.
 */
export function parseImage(image) {
  if (image === '' || /\s/.test(image)) {
    throw new ScriptError(
      `IMG must be an image reference such as ghcr.io/you/application-operator:0.1.0, got "${image}"`,
    );
  }
  const at = image.indexOf('@');
  if (at >= 0) return { newName: image.slice(0, at), digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) {
    return { newName: image.slice(0, colon), newTag: image.slice(colon + 1) };
  }
  return { newName: image };
}

/**
 * Points config/manager's kustomization at `image` (the `controller` entry of `images`),
 * keeping its comments; what kubebuilder's `kustomize edit set image controller=${IMG}` does.
 * Writes only when something changes. Returns whether it changed the file.
 *
 * @param {string} image
 * @param {string} [root] the operator's directory
 */
export function setManagerImage(image, root = operatorRoot) {
  const path = join(root, 'config', 'manager', 'kustomization.yaml');
  const text = readFileSync(path, 'utf8');
  const document = YAML.parseDocument(text);
  const images = /** @type {Record<string, unknown>[]} */ (document.toJS()?.images ?? []);
  const others = images.filter((entry) => entry.name !== 'controller');
  document.set('images', [{ name: 'controller', ...parseImage(image) }, ...others]);
  const updated = document.toString();
  if (updated === text) return false;
  writeFileSync(path, updated);
  return true;
}

/**
 * The script's arguments (process.argv after the script), without a leading `--`: pnpm
 * passes it on from `pnpm run <script> -- <args>`.
 */
export function scriptArgs() {
  const args = process.argv.slice(2);
  return args[0] === '--' ? args.slice(1) : args;
}

/**
 * The value of `--name value` or `--name=value` in `argv`, and `argv` without it.
 *
 * @param {string[]} argv
 * @param {string} name without the dashes
 * @returns {{ value: string | undefined, rest: string[] }}
 */
export function takeOption(argv, name) {
  const rest = [];
  let value;
  for (let index = 0; index < argv.length; index++) {
    const arg = /** @type {string} */ (argv[index]);
    if (arg === `--${name}`) {
      value = argv[index + 1];
      if (value === undefined) throw new ScriptError(`--${name} needs a value`);
      index++;
    } else if (arg.startsWith(`--${name}=`)) {
      value = arg.slice(name.length + 3);
    } else {
      rest.push(arg);
    }
  }
  return { value, rest };
}

/** Whether `argv` holds `--name`, and `argv` without it. @param {string[]} argv @param {string} name */
export function takeFlag(argv, name) {
  const rest = argv.filter((arg) => arg !== `--${name}`);
  return { set: rest.length !== argv.length, rest };
}

/**
 * Runs `main` when the calling module is the process's entry point: prints a ScriptError's
 * message (anything else with its stack) and sets exit code 1 on failure.
 *
 * @param {string} moduleUrl the caller's import.meta.url
 * @param {() => Promise<number | undefined> | number | undefined} main
 */
export function runIfMain(moduleUrl, main) {
  const entry = process.argv[1];
  if (entry === undefined || pathToFileURL(resolve(entry)).href !== moduleUrl) return;
  Promise.resolve()
    .then(main)
    .then(
      (code) => {
        process.exitCode = code ?? 0;
      },
      (error) => {
        const name = fileURLToPath(moduleUrl).split(/[\\/]/).pop();
        console.error(ScriptError.isScriptError(error) ? `${name}: ${error.message}` : error);
        process.exitCode = 1;
      },
    );
}

/** Fails with a hint when the operator has not been built. @param {string} [root] */
export function requireBundle(root = operatorRoot) {
  const bundle = join(root, 'dist', 'main.js');
  if (!existsSync(bundle)) {
    throw new ScriptError(
      `${bundle} does not exist: build the operator first (pnpm run build, or pnpm run manifests which builds it).`,
    );
  }
  return bundle;
}
