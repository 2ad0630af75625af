export {
  type BindAddress,
  Manager,
  type ManagerOptions,
  type Runnable,
  setupSignalHandler,
} from './manager.js';
