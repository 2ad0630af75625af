/**
 * The kube-apiserver flags both real planes (this one and the kwok cluster plane) start it
 * with, as `[flag, value]`: the authorization and admission of a hardened production cluster,
 * so that what an operator does is judged as such a cluster judges it.
 *
 * - `authorization-mode=Node,RBAC`: the Node authorizer (kubelets reach only their own
 *   objects) before RBAC, as kubeadm and the managed providers configure it.
 * - `enable-admission-plugins`: on top of kube-apiserver's default set,
 *   `OwnerReferencesPermissionEnforcement` (OpenShift's default, and many hardened
 *   clusters'): setting `blockOwnerDeletion: true` on an owner reference needs `update` on the
 *   owner's `finalizers`, else 403 "cannot set blockOwnerDeletion if an ownerReference refers
 *   to a resource you can't set finalizers on"; `NodeRestriction` (a kubelet may change only
 *   its own Node and its Pods; it needs the Node authorizer); and `PodSecurity`, on by default
 *   since 1.25, listed to say so: it enforces the Pod Security Standard a namespace's
 *   `pod-security.kubernetes.io/enforce` label names (the operators' namespaces are labelled
 *   `restricted`, see `Environment.operatorServiceAccount`).
 * - `disable-admission-plugins=ServiceAccount`, the one exception, as controller-runtime's
 *   envtest: the plugin refuses a Pod whose namespace has no `default` ServiceAccount yet.
 *   Here nothing creates those accounts (no kube-controller-manager on this plane), and on the
 *   cluster plane kube-controller-manager creates them a moment after the namespace, so a
 *   test's first Pod would be refused by a race, not by anything an operator did. The plugin
 *   judges no operator behaviour (it only defaults `serviceAccountName` and mounts its token).
 */
export const hardenedApiServerArgs: ReadonlyArray<readonly [string, string]> = [
  ['authorization-mode', 'Node,RBAC'],
  ['enable-admission-plugins', 'NodeRestriction,OwnerReferencesPermissionEnforcement,PodSecurity'],
  ['disable-admission-plugins', 'ServiceAccount'],
];
