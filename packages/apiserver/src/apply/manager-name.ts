/**
 * The manager a write is recorded under (kube's `managerOrUserAgent`): the request's
 * `fieldManager`, else the User-Agent up to its first `/` (`kubectl/v1.35.0 (linux/amd64)`
 * records as `kubectl`). The simulated cluster's controllers, which send no User-Agent, are
 * named as kube's components are: `kube-controller-manager`, `kube-scheduler`, `kubelet`, and
 * what the server creates at start (namespaces, the bootstrap RBAC policy) `kube-apiserver`.
 */

/** What a write says about its writer. */
export interface WriterIdentity {
  fieldManager?: string;
  userAgent?: string;
  userName?: string;
}

const componentUsers: Readonly<Record<string, string>> = {
  'system:apiserver': 'kube-apiserver',
  'system:kube-controller-manager': 'kube-controller-manager',
  'system:kube-scheduler': 'kube-scheduler',
};

/** The manager name for a write by `writer`; `''` when nothing names it. */
export function managerName(writer: WriterIdentity): string {
  if (writer.fieldManager) return writer.fieldManager;
  if (writer.userAgent) return writer.userAgent.split('/')[0] ?? '';
  const user = writer.userName ?? '';
  if (user.startsWith('system:node:')) return 'kubelet';
  return componentUsers[user] ?? '';
}
