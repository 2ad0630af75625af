export type {
  CoreEvent,
  EventObjectReference,
  EventPatch,
  EventSink,
  EventType,
} from './core-event.js';
export {
  type Correlation,
  EventCorrelator,
  type EventCorrelatorOptions,
} from './event-correlator.js';
export { EventRecorder, type EventRecorderOptions } from './event-recorder.js';
export { EventSpamFilter, type EventSpamFilterOptions } from './event-spam-filter.js';
