/** One job of the test command: a package's suite in one variant (scripts/run-suites.mjs). */
export interface Suite {
  label: string;
  key: string;
  name: string;
  directory: string;
  script: 'test' | 'test:binaries';
  args: string[];
  env: Record<string, string>;
  report: string;
  onOldestNode: boolean;
}

/** A workspace package as the test command sees it. */
export interface WorkspacePackage {
  name: string;
  directory: string;
  scripts: Record<string, string>;
  published: boolean;
}

/** The packages under packages/, operators/ and tools/ of `repositoryRoot`. */
export function workspacePackages(repositoryRoot: string): WorkspacePackage[];

/** Every job of the test command, in the packages' order. */
export function planSuites(
  packages: WorkspacePackage[],
  versions: { nodeVersion: string; olderReleases: string[]; oldestNode?: string },
): Suite[];

/** Seconds from a vitest JSON report's first file start to its last file end. */
export function reportSeconds(file: string): number | undefined;

/** The suites, longest expected first (last report, else recorded by key, else 0). */
export function longestFirst(
  suites: Suite[],
  lastReport: (suite: Suite) => number | undefined,
  recorded: Record<string, number>,
): (Suite & { expectedSeconds: number })[];

/** The children's user + system seconds from bash's `times` output. */
export function childrenCpuSeconds(text: string): number | undefined;
