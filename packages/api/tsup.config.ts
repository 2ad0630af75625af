import { packageBundle } from '../../tsup.package.js';

// node-version and require-supported-node are entries of their own: a CLI imports them before
// anything an unsupported Node.js cannot load, so they must stay dependency-free.
export default packageBundle([
  'src/index.ts',
  'src/node-version.ts',
  'src/require-supported-node.ts',
]);
