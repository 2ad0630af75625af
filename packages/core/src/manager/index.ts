export {
  type LeaderCallbacks,
  type LeaderElectionOptions,
  LeaderElector,
} from './leader-election.js';
export {
  type BindAddress,
  Manager,
  type ManagerOptions,
  type Runnable,
  setupSignalHandler,
} from './manager.js';
