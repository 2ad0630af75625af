export { ManifestsError } from './errors/manifests-error.js';
export {
  type FileOutcome,
  type FileStatus,
  type GenerateManifestsOptions,
  type GenerateManifestsResult,
  generateManifests,
} from './generate-manifests.js';
export {
  checkManifestModule,
  expectedModuleShape,
  loadManifestModule,
  type ManifestCertificateRbac,
  type ManifestModule,
  type ManifestOperator,
  type ManifestRbac,
} from './load-manifest-module.js';
export { type MainIo, main, usage } from './main.js';
export {
  certificateRolePath,
  crdDirectory,
  defaultRoleName,
  type GeneratedFile,
  generatedHeader,
  renderManifests,
  rolePath,
  shardingRoleFile,
  shardingRolePath,
  toManifestStream,
  toManifestYaml,
  webhookPath,
} from './render-manifests.js';
export { type UnifiedDiffOptions, unifiedDiff } from './unified-diff.js';
