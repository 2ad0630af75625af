import { packageBundle } from '../../tsup.package.js';

export default packageBundle(['src/cli.ts'], { dts: false });
