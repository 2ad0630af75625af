import type { FidelityScenario } from '../scenario.js';
import { admission } from './admission.js';
import { applyPatches } from './apply-patches.js';
import { configMaps } from './config-maps.js';
import { conversion } from './conversion.js';
import { customResourceDefinitions } from './custom-resource-definitions.js';
import { customResourcePatches } from './custom-resource-patches.js';
import { customResources } from './custom-resources.js';
import { deployments } from './deployments.js';
import { discovery } from './discovery.js';
import { errors } from './errors.js';
import { jsonPatches } from './json-patches.js';
import { lists } from './lists.js';
import { mergePatches } from './merge-patches.js';
import { namespaces } from './namespaces.js';
import { openapi } from './openapi.js';
import { partialObjectMetadata } from './partial-object-metadata.js';
import { podsAndServices } from './pods-and-services.js';
import { selectors } from './selectors.js';
import { strategicMergePatches } from './strategic-merge-patches.js';
import { subresources } from './subresources.js';
import { tables } from './tables.js';
import { watches } from './watches.js';

/**
 * The corpus `pnpm fidelity` sends, in order. The CRD scenario comes before the other
 * custom-resource ones so that its create answer is measured; each of those installs the CRD
 * itself (unrecorded) when run alone. The conversion scenario comes last: its CRDs add a
 * version to the corpus's group, which the discovery and OpenAPI scenarios would otherwise see.
 */
export const corpus: readonly FidelityScenario[] = [
  namespaces,
  configMaps,
  deployments,
  podsAndServices,
  jsonPatches,
  mergePatches,
  strategicMergePatches,
  applyPatches,
  customResourceDefinitions,
  customResources,
  customResourcePatches,
  subresources,
  lists,
  selectors,
  watches,
  errors,
  tables,
  partialObjectMetadata,
  discovery,
  openapi,
  admission,
  conversion,
];
