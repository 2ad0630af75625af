// The balancer-operator's entry point: flags, logger, manager, webhook server and signals are
// @ops/core's runOperator (`node dist/main.js --help`); the operator itself is
// src/operator.ts. runOperator never exits the process: it resolves to the exit code.
import { runOperator } from '@ops/core';
import { balancerOperator } from './operator.js';

process.exitCode = await runOperator(balancerOperator);
