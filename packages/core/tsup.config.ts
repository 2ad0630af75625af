import { packageBundle } from '../../tsup.package.js';

/** The root entry and one entry per subpath of package.json `exports`. */
const subpaths = [
  'cache',
  'client',
  'clock',
  'controller',
  'crd',
  'events',
  'health',
  'manager',
  'meta',
  'metrics',
  'operator',
  'queue',
  'webhook',
] as const;

// Splitting puts the code the entries share in common chunks, so a class imported from the
// root and from a subpath is one class (instanceof, private fields) and ships once.
export default packageBundle(
  ['src/index.ts', ...subpaths.map((subpath) => `src/${subpath}/index.ts`)],
  { splitting: true },
);
