import { packageBundle } from '../../tsup.package.js';

// The post-renderer program is a file of its own: Helm runs it (webhooksByUrlPostRenderer).
export default packageBundle(['src/index.ts', 'src/webhooks-by-url-post-renderer-main.ts']);
