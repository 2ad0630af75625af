import { relative } from 'node:path';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { imageFromEnvironment } from '../image-reference.js';
import type { OperatorProject } from '../operator-project.js';
import { runCommand } from '../run-command.js';
import { parseVerbOptions, type Verb } from '../verb.js';

/** The platforms docker-buildx builds unless PLATFORMS says otherwise. */
export const defaultPlatforms = 'linux/amd64,linux/arm64';

/** The buildx builder docker-buildx creates (and leaves) for the operator: `<name>-builder`. */
export function builderName(project: OperatorProject): string {
  return `${project.name}-builder`;
}

/** The docker CLI: `env.CONTAINER_TOOL` (e.g. podman), else `docker`. */
function containerTool(env: NodeJS.ProcessEnv): string {
  return env.CONTAINER_TOOL || 'docker';
}

/** Fails with what to do unless `tool` runs and reaches its daemon. */
async function requireDaemon(tool: string, env: NodeJS.ProcessEnv): Promise<void> {
  const install =
    'Install Docker (https://docs.docker.com/get-docker/) or set CONTAINER_TOOL to a docker-compatible CLI.';
  await runCommand(tool, ['--version'], { capture: true, env, what: tool, install });
  try {
    await runCommand(tool, ['info', '--format', '{{.ServerVersion}}'], {
      capture: true,
      env,
      what: tool,
    });
  } catch (error) {
    throw new OperatorCliError(
      `${tool} is installed but cannot reach its daemon; start Docker (or check DOCKER_HOST / the docker context).\n${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Which image to build, and with which environment. */
export interface DockerOptions {
  /** Default: IMG, else the operator's `<name>:latest`. */
  image?: string;
  env?: NodeJS.ProcessEnv;
}

/** `--build-arg NAME=value` for each of the Dockerfile's build arguments. */
function buildArgs(project: OperatorProject): string[] {
  return Object.entries(project.dockerBuildArgs).flatMap(([name, value]) => [
    '--build-arg',
    `${name}=${value}`,
  ]);
}

/**
 * `docker build --tag <image> --file <Dockerfile> [--build-arg OPERATOR=<directory>] <build
 * context>`: the operator's Dockerfile (its own, else the workspace's shared
 * operators/Dockerfile with the operator's directory as argument), the build context being
 * the workspace root (the operator is built from the workspace's sources). Resolves with the
 * image.
 *
 * @throws {OperatorCliError} when docker is missing, its daemon is unreachable, or the
 * build fails.
 */
export async function dockerBuild(
  project: OperatorProject,
  options: DockerOptions = {},
): Promise<string> {
  return runWithImage(project, options, (image) => [
    'build',
    '--tag',
    image,
    '--file',
    project.dockerfile,
    ...buildArgs(project),
    project.buildContext,
  ]);
}

/**
 * Runs the container tool with `args(image)` in the operator's directory once its daemon
 * answers; the image is `options.image`, else IMG, else the operator's `<name>:latest`.
 */
async function runWithImage(
  project: OperatorProject,
  options: DockerOptions,
  args: (image: string) => string[],
): Promise<string> {
  const env = options.env ?? process.env;
  const tool = containerTool(env);
  await requireDaemon(tool, env);
  const image = options.image ?? imageFromEnvironment(project.defaultImage, env);
  await runCommand(tool, args(image), { env, cwd: project.root });
  return image;
}

/**
 * `docker push <image>`, as kubebuilder's make docker-push: pushes the image
 * {@link dockerBuild} made (IMG, else the operator's `<name>:latest`). Resolves with the image.
 *
 * @throws {OperatorCliError} when docker is missing, its daemon is unreachable, or the push
 * fails (not logged in, no such local image, a registry that refuses it).
 */
export async function dockerPush(
  project: OperatorProject,
  options: DockerOptions = {},
): Promise<string> {
  return runWithImage(project, options, (image) => ['push', image]);
}

/**
 * Builds for `platforms` (default: PLATFORMS, else linux/amd64,linux/arm64) with docker
 * buildx and pushes the image (a multi-platform image cannot be loaded into the local image
 * store); creates the builder {@link builderName} (docker-container driver) when missing.
 * Resolves with the image. There is no default image: it must be one the user can push to.
 *
 * @throws {OperatorCliError} when no image is given (`image` or IMG), docker or its buildx
 * plugin is missing, the daemon is unreachable, or the build or push fails.
 */
export async function dockerBuildx(
  project: OperatorProject,
  options: DockerOptions & { platforms?: string } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const image = options.image ?? env.IMG;
  if (image === undefined || image === '') {
    throw new OperatorCliError(
      `docker-buildx pushes the image, so it needs one you can push to: set IMG, e.g. IMG=ghcr.io/<you>/${project.name}:${project.version}`,
    );
  }
  const tool = containerTool(env);
  await requireDaemon(tool, env);
  try {
    await runCommand(tool, ['buildx', 'version'], { capture: true, env });
  } catch (error) {
    throw new OperatorCliError(
      `${tool} buildx is not available: install the buildx plugin (https://docs.docker.com/go/buildx/).\n${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const builder = builderName(project);
  try {
    await runCommand(tool, ['buildx', 'inspect', builder], { capture: true, env });
  } catch {
    await runCommand(
      tool,
      ['buildx', 'create', '--name', builder, '--driver', 'docker-container'],
      {
        capture: true,
        env,
      },
    );
  }
  const platforms = options.platforms ?? (env.PLATFORMS || defaultPlatforms);
  await runCommand(
    tool,
    [
      'buildx',
      'build',
      '--builder',
      builder,
      '--platform',
      platforms,
      '--tag',
      image,
      '--push',
      '--file',
      project.dockerfile,
      ...buildArgs(project),
      project.buildContext,
    ],
    { env, cwd: project.root },
  );
  return image;
}

const environment = `Environment:
  IMG              the image (default <package name>:latest)
  CONTAINER_TOOL   a docker-compatible CLI instead of docker (e.g. podman)`;

export const dockerBuildVerb: Verb = {
  name: 'docker-build',
  summary: 'docker build the operator image, tagged IMG',
  help: `Usage: [IMG=<image>] ops-operator docker-build

Builds the operator's Dockerfile into IMG, as kubebuilder's make docker-build. The build
context is the workspace root (where pnpm-workspace.yaml is), so the operator is built from
the workspace's sources; outside a workspace, the operator's directory. The Dockerfile is the
operator's own; an operator of a workspace without one is built from the workspace's shared
operators/Dockerfile, with --build-arg OPERATOR=<its directory under operators/>.

${environment}`,
  async run(argv, context) {
    parseVerbOptions(this, argv, {});
    const project = context.project();
    const image = await dockerBuild(project, { env: context.env });
    context.stdout(`built ${image} from ${relative(project.buildContext, project.dockerfile)}\n`);
    return 0;
  },
};

export const dockerPushVerb: Verb = {
  name: 'docker-push',
  summary: 'docker push IMG (the image docker-build made)',
  help: `Usage: [IMG=<image>] ops-operator docker-push

Pushes IMG, the image docker-build tagged, as kubebuilder's make docker-push: log in to the
registry first (docker login). For a multi-platform image built and pushed in one step, use
docker-buildx.

${environment}`,
  async run(argv, context) {
    parseVerbOptions(this, argv, {});
    const image = await dockerPush(context.project(), { env: context.env });
    context.stdout(`pushed ${image}\n`);
    return 0;
  },
};

export const dockerBuildxVerb: Verb = {
  name: 'docker-buildx',
  summary: 'build IMG for linux/amd64 and linux/arm64 with buildx, and push it',
  help: `Usage: IMG=<image> [PLATFORMS=<list>] ops-operator docker-buildx

Builds the operator's image for several platforms with docker buildx and PUSHES it to IMG
(a multi-platform image cannot be loaded locally), as kubebuilder's make docker-buildx.
IMG is required: a registry path you can push to. Creates the buildx builder
<package name>-builder when missing.

${environment.replace(' (default <package name>:latest)', ' (required)')}
  PLATFORMS        the platforms (default ${defaultPlatforms})`,
  async run(argv, context) {
    parseVerbOptions(this, argv, {});
    const image = await dockerBuildx(context.project(), { env: context.env });
    context.stdout(`built and pushed ${image}\n`);
    return 0;
  },
};
