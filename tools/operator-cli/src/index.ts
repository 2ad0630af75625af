export type { GeneratedFile } from '@ops/manifests';
export { ensureClusterWebhookSecret } from './cluster-webhook-secret.js';
export { OperatorCliError } from './errors/operator-cli-error.js';
export { type ChartFile, chartDirectory, helmLabels, renderHelmChart } from './helm-chart.js';
export { imageFromEnvironment, type KustomizeImage, parseImage } from './image-reference.js';
export {
  type K8sObject,
  kubectl,
  kubectlCommand,
  kustomize,
  parseYamlStream,
  toYamlStream,
} from './kubectl.js';
export { ensureLocalCertificates, localWebhookHosts } from './local-certificates.js';
export { type MainIo, main, operatorVerbs, usage, verbs } from './main.js';
export { setManagerImage } from './manager-image.js';
export {
  dashboardMetrics,
  dashboardMetricsMissing,
  dashboardPath,
  grafanaDashboard,
  prometheusOverlay,
} from './observability.js';
export {
  findOperatorRoot,
  findUpwards,
  loadOperatorProject,
  type OperatorProject,
  type OperatorWebhooks,
  operatorMarker,
  readOperatorProject,
  requireWebhooks,
  webhookServiceDnsNames,
} from './operator-project.js';
export { type RunCommandOptions, runCommand } from './run-command.js';
export {
  camelCase,
  kebabCase,
  maxOperatorNameLength,
  type OperatorSpec,
  type OperatorSpecInput,
  operatorSpec,
  pluralize,
} from './scaffold/operator-spec.js';
export {
  fillPlaceholders,
  fillSections,
  placeholderValues,
  renderOperatorTemplates,
  renderTemplates,
  sectionFlags,
  type TemplateFile,
  templatesDirectory,
} from './scaffold/operator-templates.js';
export {
  findWorkspaceRoot,
  type WorkspacePackage,
  workspacePackages,
  workspaceVersion,
} from './scaffold/workspace-versions.js';
export {
  type CertificateSet,
  certificatesUsable,
  createCertificates,
  ensureCertificateDirectory,
  renewBeforeMs,
} from './serving-certificates.js';
export type { Verb, VerbContext } from './verb.js';
export { buildInstaller } from './verbs/build-installer.js';
export { installCrds, uninstallCrds } from './verbs/crds.js';
export { type DeployOptions, deploy, undeploy } from './verbs/deploy.js';
export {
  builderName,
  type DockerOptions,
  defaultPlatforms,
  dockerBuild,
  dockerBuildx,
} from './verbs/docker.js';
export { buildOperator, generateOperatorManifests, manifestModule } from './verbs/manifests.js';
export {
  newVerb,
  pnpmCommand,
  type ScaffoldOptions,
  type ScaffoldResult,
  scaffoldOperator,
} from './verbs/new.js';
export { type RunLocallyOptions, requireBundle, runLocally } from './verbs/run.js';
export {
  localWebhookObjects,
  noCertManagerOverlay,
  removeLocalRoute,
  routeWebhooksHere,
} from './verbs/webhook-local.js';
export { patchCaBundle, withCaBundle } from './webhook-ca-bundle.js';
export { routeWebhooksForTest, type WebhookTestEnvironment } from './webhooks-for-test.js';
