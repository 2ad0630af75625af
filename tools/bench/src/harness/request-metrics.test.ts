import { describe, expect, it } from 'vitest';
import { writeRequests } from './request-metrics.js';

const metrics = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 12
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="PUT",version="v1"} 3
apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="PATCH",version="v1"} 4
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"} 40
apiserver_request_total{code="0",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PATCH",version="v1"} 7
apiserver_request_total{code="200",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 30
apiserver_request_total{code="200",component="apiserver",dry_run="",group="example.com",resource="configmaps",scope="resource",subresource="",verb="DELETE",version="v1"} 5
`;

describe('writeRequests', () => {
  it('sums the write verbs of one core resource over every code, reads excluded', () => {
    expect(writeRequests(metrics, 'configmaps')).toBe(12 + 3 + 1 + 4);
    expect(writeRequests(metrics, 'pods')).toBe(7);
    expect(writeRequests(metrics, 'secrets')).toBe(0);
  });

  it('refuses text that is not kube-apiserver metrics', () => {
    expect(() => writeRequests('{"kind":"Status","code":403}', 'configmaps')).toThrow(
      /no apiserver_request_total sample/,
    );
  });
});
