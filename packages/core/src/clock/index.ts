export { type Clock, realClock, type TimerHandle } from './clock.js';
export { FakeClock } from './fake-clock.js';
