// The build every operator shares (one self-contained dist/main.js and dist/manifests.js).
export { default } from '../../tsup.operator.js';
