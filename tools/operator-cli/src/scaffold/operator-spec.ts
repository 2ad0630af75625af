/**
 * What `ops-operator new` is asked for (kubebuilder's `init` + `create api`): the operator's
 * name and its API's group, version, kind and scope, checked against the rules Kubernetes and
 * kustomize apply to the names derived from them, and every name the templates use.
 */
import { OperatorCliError } from '../errors/operator-cli-error.js';

/** The arguments of `ops-operator new`, as given. */
export interface OperatorSpecInput {
  name?: string | undefined;
  group?: string | undefined;
  version?: string | undefined;
  kind?: string | undefined;
  /** Default: the kind in lower case, made plural as kubebuilder does. */
  plural?: string | undefined;
  namespaced?: boolean | undefined;
  cluster?: boolean | undefined;
  /** Scaffold admission webhooks (defaulting and validating webhooks for the kind, and their config). */
  webhooks?: boolean | undefined;
  /** Default `workspace`: see {@link OperatorSpec.layout}. */
  layout?: ProjectLayout | undefined;
  /** Default `pnpm`: see {@link OperatorSpec.packageManager}. */
  packageManager?: PackageManager | undefined;
  /**
   * The name is an existing operator's (`create api`, `create webhook`): it is taken as it
   * is, not held to the rules of a new one.
   */
  existing?: boolean | undefined;
}

/**
 * Where an operator lives: `workspace`, a package of this repository's pnpm workspace
 * (`operators/<name>`, `workspace:*` dependencies, the root's shared tsup, vitest and
 * tsconfig settings); `standalone`, a project of its own in any directory (`ops-operator
 * init`), depending on the published `@ops/*` packages by semver range, with every setting
 * in the project.
 */
export type ProjectLayout = 'workspace' | 'standalone';

/** The package manager a project's scripts, Dockerfile, workflow and README use. */
export type PackageManager = 'npm' | 'pnpm';

/** A checked request and the names derived from it. */
export interface OperatorSpec {
  /** The package and directory name, e.g. `myjob-operator`. */
  name: string;
  /** The API group, e.g. `batch.example.com`. */
  group: string;
  /** The API version, e.g. `v1`. */
  version: string;
  /** The kind, e.g. `MyJob`. */
  kind: string;
  /** The CRD's plural resource name, e.g. `myjobs`. */
  plural: string;
  /** The CRD's singular name: the kind in lower case, e.g. `myjob`. */
  singular: string;
  scope: 'Namespaced' | 'Cluster';
  /** The kind in kebab case, for file names: `my-job`. */
  kindFile: string;
  /** The kind in camel case, for identifiers: `myJob`. */
  kindCamel: string;
  /** The kind made plural, for prose: `MyJobs`. */
  kindPlural: string;
  /** The operator's name in camel case, for identifiers: `myjobOperator`. */
  operatorCamel: string;
  /**
   * Whether it serves admission webhooks: config/webhook, config/certmanager,
   * config/default-no-certmanager and config/self-managed-certs, the manager's webhook port
   * and certificate volume, and defaulting and validating webhooks for the kind.
   */
  webhooks: boolean;
  /**
   * Whether it serves a CRD conversion webhook (`create webhook --conversion`): without
   * admission webhooks, the webhook server's Service, certificates (both modes) and manager
   * wiring as for {@link webhooks}, but no webhook configurations. Unset: it does not. The
   * templates render the same files for `webhooks` with or without it.
   */
  conversion?: boolean;
  /**
   * The storage version (the hub) when `version` is another version of an existing kind
   * (`create api --version v2`); unset: `version` itself.
   */
  hubVersion?: string;
  layout: ProjectLayout;
  packageManager: PackageManager;
}

/**
 * The longest operator name: kustomize prefixes `<name>-` to the Service
 * `controller-manager-metrics-service`, whose name must be a DNS label (63 characters).
 */
export const maxOperatorNameLength = 63 - '-controller-manager-metrics-service'.length;

const label = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const namePattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*-operator$/;
const groupPattern = new RegExp(`^${label}(\\.${label})+$`);
const versionPattern = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const kindPattern = /^[A-Z][A-Za-z0-9]*$/;
const pluralPattern = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function refuse(message: string): never {
  throw new OperatorCliError(message);
}

/** English plural as kubebuilder makes resource names: job -> jobs, policy -> policies. */
export function pluralize(word: string): string {
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** `MyJob` -> `my-job`, `HTTPRoute` -> `http-route`. */
export function kebabCase(kind: string): string {
  return kind
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `my-job` -> `myJob`. */
export function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * Checks `input` and derives the names of {@link OperatorSpec}.
 *
 * @throws {OperatorCliError} naming the flag (or the operator name), the rule it breaks and
 * an example that follows it: a missing or malformed name, group, version, kind or plural; a
 * name or CRD name too long for Kubernetes; both `--namespaced` and `--cluster`.
 */
export function operatorSpec(input: OperatorSpecInput): OperatorSpec {
  const { name, group, version, kind } = input;
  if (name === undefined || name === '') {
    refuse(
      'the operator name is missing: ops-operator new <name> --group <group> --version <version> --kind <Kind>, e.g. ops-operator new myjob-operator --group batch.example.com --version v1 --kind MyJob',
    );
  }
  if (!input.existing && !namePattern.test(name)) {
    refuse(
      `the operator name "${name}" must be lower-case letters, digits and single hyphens, start with a letter and end in "-operator" (it is the package, directory, image and namespace name), e.g. myjob-operator`,
    );
  }
  if (!input.existing && name.length > maxOperatorNameLength) {
    refuse(
      `the operator name "${name}" is ${name.length} characters; at most ${maxOperatorNameLength} fit (kustomize prefixes "${name}-" to its Service names, which Kubernetes limits to 63): choose a shorter name`,
    );
  }
  if (group === undefined || group === '') {
    refuse(
      '--group is missing: the API group, a DNS domain you own, e.g. --group batch.example.com',
    );
  }
  if (!groupPattern.test(group) || group.length > 253) {
    refuse(
      `--group "${group}" must be a DNS subdomain with at least one dot: lower-case labels of letters, digits and hyphens (not at either end) joined by dots, at most 253 characters, e.g. --group batch.example.com`,
    );
  }
  if (version === undefined || version === '') {
    refuse('--version is missing: the API version, e.g. --version v1 or --version v1alpha1');
  }
  if (!versionPattern.test(version)) {
    refuse(
      `--version "${version}" must be a Kubernetes API version: "v", a number from 1, optionally "alpha" or "beta" and a number from 1, e.g. --version v1, v2beta1 or v1alpha1`,
    );
  }
  if (kind === undefined || kind === '') {
    refuse('--kind is missing: the kind in PascalCase, e.g. --kind MyJob');
  }
  if (!kindPattern.test(kind) || kind.length > 63) {
    refuse(
      `--kind "${kind}" must be PascalCase: an upper-case letter, then letters and digits, at most 63 characters, e.g. --kind MyJob`,
    );
  }
  if (input.namespaced && input.cluster) {
    refuse('--namespaced and --cluster exclude each other: pass one (the default is --namespaced)');
  }
  const singular = kind.toLowerCase();
  const plural = input.plural ?? pluralize(singular);
  if (!pluralPattern.test(plural) || plural.length > 63) {
    refuse(
      `--plural "${plural}" must be a DNS label: lower-case letters, digits and hyphens (not at either end), at most 63 characters, e.g. --plural myjobs`,
    );
  }
  if (plural === singular) {
    refuse(
      `--plural "${plural}" equals the singular name "${singular}" (the kind in lower case); Kubernetes needs them to differ: pass another --plural`,
    );
  }
  if (`${plural}.${group}`.length > 253) {
    refuse(
      `the CRD name "${plural}.${group}" is longer than Kubernetes's 253 characters: shorten --group or --kind (or pass a shorter --plural)`,
    );
  }
  const kindFile = kebabCase(kind);
  return {
    name,
    group,
    version,
    kind,
    plural,
    singular,
    scope: input.cluster ? 'Cluster' : 'Namespaced',
    kindFile,
    kindCamel: camelCase(kindFile),
    kindPlural: pluralize(kind),
    operatorCamel: camelCase(name),
    webhooks: input.webhooks === true,
    layout: input.layout ?? 'workspace',
    packageManager: input.packageManager ?? 'pnpm',
  };
}

/**
 * The command-line options that name a kind (`--group`, `--version`, `--kind`, `--plural`,
 * `--namespaced`, `--cluster`), as `init`, `new` and `create` all read them with
 * `node:util`'s `parseArgs`.
 */
export const kindArgumentOptions = {
  group: { type: 'string' },
  version: { type: 'string' },
  kind: { type: 'string' },
  plural: { type: 'string' },
  namespaced: { type: 'boolean' },
  cluster: { type: 'boolean' },
} as const;
