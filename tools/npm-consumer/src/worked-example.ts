/**
 * Reading a worked example out of a README: the part between `<!-- <marker>:start -->`
 * and `<!-- <marker>:end -->` (`worked-example` by default), as files (a fenced block right after a line that is
 * only a path in backticks) and shell commands (`sh` blocks, one command a line), in order.
 */

/** One step of a worked example, in the order the README gives them. */
export type WorkedExampleStep =
  | { kind: 'file'; path: string; content: string }
  | { kind: 'command'; command: string };

/**
 * The steps of the worked example in `markdown` marked with `marker`.
 *
 * @throws Error when the markers are missing or a fenced block is not closed, naming which.
 */
export function workedExampleSteps(
  markdown: string,
  marker = 'worked-example',
): WorkedExampleStep[] {
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    throw new Error(
      `the README has no worked example: mark it with ${start} and ${end} on lines of their own`,
    );
  }
  const lines = markdown.slice(from + start.length, to).split('\n');
  const steps: WorkedExampleStep[] = [];
  let pendingPath: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const path = /^`([\w./-]+)`$/.exec(line.trim());
    if (path) {
      pendingPath = path[1];
      continue;
    }
    const fence = /^```(\w*)$/.exec(line);
    if (!fence) {
      if (line.trim() !== '' && pendingPath !== undefined && !line.startsWith('```')) {
        pendingPath = undefined;
      }
      continue;
    }
    const body: string[] = [];
    let closed = false;
    for (index++; index < lines.length; index++) {
      const inner = lines[index] ?? '';
      if (inner === '```') {
        closed = true;
        break;
      }
      body.push(inner);
    }
    if (!closed) throw new Error(`a \`\`\`${fence[1]} block of the worked example is not closed`);
    if (pendingPath !== undefined) {
      steps.push({ kind: 'file', path: pendingPath, content: `${body.join('\n')}\n` });
    } else if (fence[1] === 'sh') {
      for (const command of body) {
        if (command.trim() !== '' && !command.trim().startsWith('#')) {
          steps.push({ kind: 'command', command: command.trim() });
        }
      }
    }
    pendingPath = undefined;
  }
  return steps;
}
