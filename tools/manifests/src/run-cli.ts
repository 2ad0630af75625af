import { main } from './main.js';

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error('ops-manifests: unexpected error:', error);
    process.exitCode = 2;
  },
);
