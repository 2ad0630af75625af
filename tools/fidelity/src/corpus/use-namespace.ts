import type { Session } from '../scenario.js';

/**
 * Creates namespace `name` for a scenario's objects without recording the request (the
 * namespaces scenario measures namespace creation itself). An existing one is used as it is.
 *
 * @throws {Error} quoting the server's answer when it refuses the namespace.
 */
export async function useNamespace(session: Session, name: string): Promise<string> {
  const answer = await session.probe({
    method: 'POST',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
  if (answer.status !== 201 && answer.status !== 409)
    throw new Error(
      `could not create namespace ${name}: ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  return name;
}
