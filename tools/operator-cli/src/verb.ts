/**
 * The shape of one `ops-operator` verb: its name, help and what it runs. Each verb lives in
 * verbs/<name>.ts next to the functions it calls; main.ts dispatches to them.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { OperatorCliError } from './errors/operator-cli-error.js';
import type { OperatorProject } from './operator-project.js';

/** What a verb runs with: the operator (read on first use), environment and output. */
export interface VerbContext {
  /** The operator directory and what is derived from it; throws when not in one. */
  project(): OperatorProject;
  /** The directory ops-operator was started in (relative paths in options are to it). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Normal output. */
  stdout(text: string): void;
  /** Progress notes, warnings and errors. */
  stderr(text: string): void;
}

/** One verb of the CLI. */
export interface Verb {
  name: string;
  /** One line, shown in `ops-operator --help`. */
  summary: string;
  /**
   * True for a scaffolding verb (`init`, `create`, `new`): it is not one of an operator's
   * package.json scripts.
   */
  workspace?: boolean;
  /** The verb's full help (`ops-operator <verb> --help`), starting with its usage line. */
  help: string;
  /**
   * Runs the verb with the arguments after its name and resolves with the exit status.
   * @throws {OperatorCliError} for anything the user can fix.
   */
  run(argv: readonly string[], context: VerbContext): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a verb's options (strict: an unknown option or a positional argument is an error
 * that shows the verb's help; a leading `--` is dropped). `--help` is handled by main.ts before the verb runs.
 */
export function parseVerbOptions<T extends Options>(
  verb: Pick<Verb, 'name' | 'help'>,
  argv: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>['values'] {
  // A leading `--` is what `pnpm run <script> -- <args>` may pass on: not an argument.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new OperatorCliError(`${verb.name}: ${message}\n\n${verb.help}`);
  }
}
