export {
  defaultLeaseTiming,
  type LeaderCallbacks,
  type LeaderElectionOptions,
  LeaderElector,
  type LeaseTiming,
  leaseTiming,
} from '../leader-election/leader-election.js';
export {
  type BindAddress,
  Manager,
  type ManagerOptions,
  type Runnable,
  setupSignalHandler,
} from './manager.js';
