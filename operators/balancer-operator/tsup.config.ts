// The settings every operator shares (tsup.operator.ts at the repository root), plus
// dist/local-nginx.js: the Balancer's nginx.conf on a local nginx, for the demo.
import { defineConfig } from 'tsup';
import { operatorBundleConfig } from '../../tsup.operator.js';

export default defineConfig({
  ...operatorBundleConfig,
  entry: {
    ...(operatorBundleConfig.entry as Record<string, string>),
    'local-nginx': 'src/local-nginx/index.ts',
  },
});
