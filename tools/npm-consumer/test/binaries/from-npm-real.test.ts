// The real-plane step of the root README's "From npm" steps: the project written by `npm
// create @ops/operator` from the packed packages (see ../from-npm.test.ts), with its second
// kind and webhooks, runs its own `npm run test:binaries` on etcd + kube-apiserver: both
// controllers under their generated RBAC, judged by kube-apiserver's authorizer, and the
// webhooks called by kube-apiserver. The binaries come from OPS_CONTROL_PLANE_CACHE (inherited,
// as a user's shell passes it) or the user's cache, or KUBEBUILDER_ASSETS.
import { describe, expect, it } from 'vitest';
import { useFromNpm } from '../use-from-npm.js';

const minutes = 60_000;

const run = useFromNpm();

describe('the README\'s "From npm" steps, on the real control plane', () => {
  it(
    'writes the project and its second kind and webhooks, then passes npm run test:binaries',
    async () => {
      // The steps that make the project (up to its lint), then the real-plane one.
      const lint = run.steps.indexOf('npm run lint');
      const binaries = run.steps.find((step) => step.startsWith('npm run test:binaries'));
      expect(lint).toBeGreaterThan(0);
      expect(binaries).toBeDefined();
      for (const step of run.steps.slice(0, lint)) await run.shell.run(step);
      const { stdout } = await run.shell.run(binaries as string);
      // Both kinds' end-to-end tests (3 each) and the webhooks' (2), on kube-apiserver.
      expect(stdout).toMatch(/Tests\s+8 passed \(8\)/);
    },
    15 * minutes,
  );
});
