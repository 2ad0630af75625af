import { configMap } from '@ops/envtest';
import type { FidelityRequest, FidelityScenario, Session } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-watch';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

/** Writes whose events the watches read: create, update, a no-op update, relabel, delete. */
async function write(session: Session): Promise<void> {
  const steps: FidelityRequest[] = [
    { method: 'POST', path: collection, body: configMap(ns, 'a', { v: '1' }, { watched: 'yes' }) },
    {
      method: 'PUT',
      path: `${collection}/a`,
      body: configMap(ns, 'a', { v: '2' }, { watched: 'yes' }),
    },
    {
      method: 'PUT',
      path: `${collection}/a`,
      body: configMap(ns, 'a', { v: '2' }, { watched: 'yes' }),
    },
    {
      method: 'PUT',
      path: `${collection}/a`,
      body: configMap(ns, 'a', { v: '2' }, { watched: 'no' }),
    },
    { method: 'POST', path: collection, body: configMap(ns, 'b', { v: '1' }, { watched: 'yes' }) },
    { method: 'DELETE', path: `${collection}/a` },
  ];
  for (const step of steps) {
    const answer = await session.probe(step);
    if (answer.status >= 300)
      throw new Error(
        `watch scenario: ${step.method} ${step.path} answered ${answer.status} ${JSON.stringify(answer.body)}`,
      );
  }
}

/** Watches: replay from a resourceVersion, selectors, initial events, live events. */
export const watches: FidelityScenario = {
  name: 'watch/events',
  description:
    'Watch replay from a resourceVersion (no-op update, label transitions), selectors, sendInitialEvents bookmark, live events, from resourceVersion 1',
  async run(session) {
    await useNamespace(session, ns);
    const before = await session.send('list before the writes', {
      method: 'GET',
      path: collection,
    });
    const from = resourceVersionOf(before);
    await write(session);
    const stream = (label: string, query: string) =>
      session.send(label, {
        method: 'GET',
        path: `${collection}?watch=true&timeoutSeconds=1&${query}`,
        stream: true,
      });
    await stream('replay from the list', `resourceVersion=${from}`);
    await stream(
      'replay with a label selector',
      `resourceVersion=${from}&labelSelector=watched%3Dyes`,
    );
    await stream(
      'replay with a field selector',
      `resourceVersion=${from}&fieldSelector=metadata.name%3Da`,
    );
    await stream('without a resourceVersion (current state)', '');
    await stream('from resourceVersion 0', 'resourceVersion=0');
    await stream(
      'sendInitialEvents with a bookmark',
      'sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan',
    );
    await stream('sendInitialEvents without resourceVersionMatch', 'sendInitialEvents=true');
    // WatchList (KEP-3157) beyond the basic request: the state whatever the resourceVersion,
    // the bookmark's rules, and a watch from now.
    await stream(
      'sendInitialEvents from an older resourceVersion (the current state, not a replay)',
      `sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=${from}`,
    );
    await stream(
      'sendInitialEvents from resourceVersion 0',
      'sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=0',
    );
    await stream(
      'sendInitialEvents without allowWatchBookmarks (no bookmark)',
      'sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
    );
    await stream(
      'sendInitialEvents=false (from now, nothing initial)',
      'sendInitialEvents=false&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan',
    );
    await stream(
      'a plain watch with bookmarks (its initial events end with the annotated bookmark)',
      'allowWatchBookmarks=true',
    );
    await stream(
      'sendInitialEvents with resourceVersionMatch=Exact',
      'sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=Exact',
    );
    const now = await session.probe({ method: 'GET', path: collection });
    const live = stream(
      'live events',
      `resourceVersion=${resourceVersionOf(now)}&allowWatchBookmarks=true`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const step of [
      { method: 'POST', path: collection, body: configMap(ns, 'live', { v: '1' }) },
      { method: 'DELETE', path: `${collection}/live` },
    ] as const) {
      await session.probe(step);
    }
    await live;
    // A fresh kube-apiserver's watch cache still reaches back to 1: a replay, not a 410.
    await stream('from resourceVersion 1', 'resourceVersion=1');
    await session.send('watch a single object by name', {
      method: 'GET',
      path: `/api/v1/watch/namespaces/${ns}/configmaps/b?timeoutSeconds=1`,
      stream: true,
    });
  },
};
