#!/usr/bin/env node
// `npm create @ops/operator`, `npm init @ops/operator` and `pnpm create @ops/operator`: runs
// `ops-operator init` of @ops/operator-cli with the same arguments, so the project is written
// for the package manager that ran it (npm_config_user_agent).
import { main } from '@ops/operator-cli';

process.exitCode = await main(['init', ...process.argv.slice(2)]);
