import { defineConversion } from '@ops/core/crd';
import { myJobResource } from '../api/v1/my-job.js';
import { myJobV1beta1Conversion } from './my-job-v1beta1-conversion.js';

/**
 * The conversion webhook of MyJob: every request in v1beta1 converts through it to and from
 * v1 (the storage version, the hub). The webhook server serves it at /convert, the path the
 * generated CRD names (`conversion: 'Webhook'` in myJobResource).
 */
export const myJobConversion = defineConversion(myJobResource, {
  v1beta1: myJobV1beta1Conversion,
});
