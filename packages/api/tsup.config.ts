import { packageBundle } from '../../tsup.package.js';

export default packageBundle(['src/index.ts']);
