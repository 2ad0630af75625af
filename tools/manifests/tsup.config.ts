import { packageBundle } from '../../tsup.package.js';

// Splitting keeps the CLI (run-cli.ts, imported dynamically by cli.ts) and its dependencies
// out of dist/cli.js, which checks the Node.js release before loading them.
export default packageBundle(['src/index.ts', 'src/cli.ts'], { splitting: true });
