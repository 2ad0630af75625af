// `pnpm run docker-build` and `pnpm run docker-buildx`, as kubebuilder's Makefile:
//
//   IMG=ghcr.io/you/application-operator:0.1.0 pnpm run docker-build
//   IMG=ghcr.io/you/application-operator:0.1.0 pnpm run docker-buildx   (builds and pushes)
//
// The build context is the repository root (the workspace packages are built from source),
// with operators/application-operator/Dockerfile. CONTAINER_TOOL picks another docker-
// compatible CLI (podman); PLATFORMS overrides linux/amd64,linux/arm64.
import { join } from 'node:path';
import {
  imageFromEnvironment,
  operatorRoot,
  repositoryRoot,
  run,
  runIfMain,
  ScriptError,
} from './common.mjs';

/** The Dockerfile, relative to the repository root. */
export const dockerfile = 'operators/application-operator/Dockerfile';
/** The platforms docker-buildx builds. */
export const defaultPlatforms = 'linux/amd64,linux/arm64';
/** The buildx builder docker-buildx creates (and leaves) for multi-platform builds. */
export const builderName = 'application-operator-builder';

/** @param {NodeJS.ProcessEnv} env */
function containerTool(env) {
  return env.CONTAINER_TOOL || 'docker';
}

/**
 * Fails with what to do unless `tool` runs and reaches its daemon.
 * @param {string} tool
 * @param {NodeJS.ProcessEnv} env
 */
async function requireDaemon(tool, env) {
  const install =
    'Install Docker (https://docs.docker.com/get-docker/) or set CONTAINER_TOOL to a docker-compatible CLI.';
  await run(tool, ['--version'], { capture: true, env, what: tool, install });
  try {
    await run(tool, ['info', '--format', '{{.ServerVersion}}'], { capture: true, env, what: tool });
  } catch (error) {
    throw new ScriptError(
      `${tool} is installed but cannot reach its daemon; start Docker (or check DOCKER_HOST / the docker context).\n${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * `docker build -t <image> -f operators/application-operator/Dockerfile <repository root>`.
 * @param {{ image?: string, env?: NodeJS.ProcessEnv }} [options]
 */
export async function dockerBuild(options = {}) {
  const env = options.env ?? process.env;
  const tool = containerTool(env);
  await requireDaemon(tool, env);
  const image = options.image ?? imageFromEnvironment(env);
  await run(
    tool,
    ['build', '--tag', image, '--file', join(repositoryRoot, dockerfile), repositoryRoot],
    { env, cwd: operatorRoot },
  );
  return image;
}

/**
 * Builds for PLATFORMS (default linux/amd64,linux/arm64) with docker buildx and pushes
 * `image` (a multi-platform image cannot be loaded into the local image store): creates the
 * builder `application-operator-builder` (docker-container driver) when missing.
 * @param {{ image?: string, platforms?: string, env?: NodeJS.ProcessEnv }} [options]
 */
export async function dockerBuildx(options = {}) {
  const env = options.env ?? process.env;
  const tool = containerTool(env);
  await requireDaemon(tool, env);
  try {
    await run(tool, ['buildx', 'version'], { capture: true, env });
  } catch (error) {
    throw new ScriptError(
      `${tool} buildx is not available: install the buildx plugin (https://docs.docker.com/go/buildx/).\n${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    await run(tool, ['buildx', 'inspect', builderName], { capture: true, env });
  } catch {
    await run(tool, ['buildx', 'create', '--name', builderName, '--driver', 'docker-container'], {
      capture: true,
      env,
    });
  }
  const image = options.image ?? imageFromEnvironment(env);
  const platforms = options.platforms ?? (env.PLATFORMS || defaultPlatforms);
  await run(
    tool,
    [
      'buildx',
      'build',
      '--builder',
      builderName,
      '--platform',
      platforms,
      '--tag',
      image,
      '--push',
      '--file',
      join(repositoryRoot, dockerfile),
      repositoryRoot,
    ],
    { env, cwd: operatorRoot },
  );
  return image;
}

runIfMain(import.meta.url, async () => {
  const verb = process.argv[2];
  if (verb === 'build') console.log(`built ${await dockerBuild()}`);
  else if (verb === 'buildx') console.log(`built and pushed ${await dockerBuildx()}`);
  else throw new ScriptError('usage: node scripts/docker.mjs build|buildx');
  return 0;
});
