/**
 * Which Node.js releases the ops packages run on, checked before anything that an older
 * release cannot load. Dependency-free (only the inlined package.json), so a CLI can import it
 * first, on any Node.js that runs ES modules, and load the rest with a dynamic import once the
 * check passed.
 */
import packageJson from '../package.json' with { type: 'json' };

/**
 * The supported releases: `engines.node` of @ops/api's package.json, which every published
 * ops package shares (a test pins that), e.g. `^22.19.0 || >=24.0.0`.
 */
export const supportedNodeRange: string = packageJson.engines.node;

type Version = [number, number, number];

interface Comparator {
  operator: '^' | '>=';
  version: Version;
}

/** `range` as comparators; only `^x.y.z` and `>=x.y.z` joined by `||`, the forms used here. */
function comparatorsOf(range: string): Comparator[] {
  return range.split('||').map((part) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) {
      throw new Error(
        `cannot read the Node.js range "${range}": write comparators ^x.y.z or >=x.y.z joined by ||, e.g. "^22.19.0 || >=24.0.0"`,
      );
    }
    return {
      operator: match[1] === '^' ? '^' : '>=',
      version: [Number(match[2]), Number(match[3]), Number(match[4])],
    };
  });
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function parseVersion(version: string): Version {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`"${version}" is not a Node.js version (x.y.z)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** `22.19.0` -> `22.19`, `22.19.1` -> `22.19.1`. */
function short(version: Version): string {
  return version[2] === 0 ? `${version[0]}.${version[1]}` : version.join('.');
}

/**
 * Why Node.js `version` cannot run the ops packages, or `undefined` when it satisfies `range`:
 * `Node.js >= 22.19 is required, this is 20.20.2` (a release older than every supported one),
 * or `Node.js ^22.19.0 || >=24.0.0 is required, this is 23.1.0` (one between the supported
 * lines), followed by how to fix it.
 *
 * @param version a release as `process.versions.node` or `node --version` writes it.
 * @param range comparators `^x.y.z` or `>=x.y.z` joined by `||` (package.json `engines.node`).
 * @throws Error when `version` or `range` cannot be read.
 */
export function unsupportedNodeMessage(
  version: string = process.versions.node,
  range: string = supportedNodeRange,
): string | undefined {
  const have = parseVersion(version);
  const comparators = comparatorsOf(range);
  const satisfied = comparators.some(
    ({ operator, version: want }) =>
      compare(have, want) >= 0 && (operator === '>=' || have[0] === want[0]),
  );
  if (satisfied) return undefined;
  const oldest = comparators
    .map((comparator) => comparator.version)
    .reduce((a, b) => (compare(a, b) <= 0 ? a : b));
  const required = compare(have, oldest) < 0 ? `>= ${short(oldest)}` : range.trim();
  return `Node.js ${required} is required, this is ${have.join('.')}: install a supported release (package.json "engines": "${range.trim()}", https://nodejs.org/en/download) and run this again`;
}

/**
 * The first thing a CLI's bin does: on a supported Node.js, `load` (a dynamic import of the
 * CLI itself, so nothing of it is loaded before this check) and resolves when it has;
 * otherwise writes `<program>: <message>` (see {@link unsupportedNodeMessage}) to stderr, sets
 * `process.exitCode` to 1 and loads nothing. It never calls `process.exit`.
 *
 * ```js
 * #!/usr/bin/env node
 * import { runOnSupportedNode } from '@ops/api/node-version';
 * await runOnSupportedNode('ops-manifests', () => import('./run-cli.js'));
 * ```
 */
export async function runOnSupportedNode(
  program: string,
  load: () => Promise<unknown>,
): Promise<void> {
  const problem = unsupportedNodeMessage();
  if (problem !== undefined) {
    process.stderr.write(`${program}: ${problem}\n`);
    process.exitCode = 1;
    return;
  }
  await load();
}
