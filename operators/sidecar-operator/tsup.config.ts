// The settings every operator shares (tsup.operator.ts at the repository root).
export { operatorBundleConfig as default } from '../../tsup.operator.js';
