import { execFileSync } from 'node:child_process';

/** One kubectl binary of the matrix, with the version it reports. */
export interface KubectlUnderTest {
  binary: string;
  /** `v1.27.16`, as `kubectl version --client` reports it. */
  version: string;
}

/**
 * The kubectl binaries the conformance walk runs with: `OPS_KUBECTL_MATRIX` (colon-separated
 * paths; scripts/ensure-kubectl-matrix.sh sets it to kubectl 1.27 ... 1.35), else `$KUBECTL`
 * (or `kubectl` on PATH) alone. Throws, naming the binary, when one does not run.
 */
export function kubectlMatrix(env: NodeJS.ProcessEnv = process.env): KubectlUnderTest[] {
  const listed = (env.OPS_KUBECTL_MATRIX ?? '').split(':').filter((path) => path !== '');
  const binaries = listed.length > 0 ? listed : [env.KUBECTL ?? 'kubectl'];
  return binaries.map((binary) => {
    let output: string;
    try {
      output = execFileSync(binary, ['version', '--client', '-o', 'json'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      throw new Error(
        `kubectl "${binary}" (from ${listed.length > 0 ? 'OPS_KUBECTL_MATRIX' : 'KUBECTL'}) does not run: install it or fix the variable (${(error as Error).message})`,
      );
    }
    const version = String(JSON.parse(output).clientVersion?.gitVersion ?? 'unknown');
    return { binary, version };
  });
}
