/**
 * Request bodies captured from kubectl v1.32.4 (which sends protobuf) against this server, each with
 * the JSON that the same kubectl prints for the object with `--dry-run=client -o json` (`fromDryRun`),
 * or, where kubectl has no dry run, the JSON Go's encoding/json writes for the object. Test data.
 */
export interface KubectlFixture {
  readonly command: string;
  readonly path: string;
  readonly protobufHex: string;
  readonly fromDryRun: boolean;
  readonly json: Record<string, unknown>;
}

export const kubectlFixtures: readonly KubectlFixture[] = [
  {
    command: 'kubectl create configmap cm1 --from-literal=a=b --from-literal=empty=',
    path: '/api/v1/namespaces/default/configmaps',
    protobufHex:
      '6b3873000a0f0a0276311209436f6e6669674d617012280a130a03636d3112001a0022002a0032003800420012060a016112016212090a05656d70747912001a002200',
    fromDryRun: true,
    json: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'cm1', creationTimestamp: null },
      data: { a: 'b', empty: '' },
    },
  },
  {
    command: 'kubectl create secret generic s1 --from-literal=pw=s3cr3t',
    path: '/api/v1/namespaces/default/secrets',
    protobufHex:
      '6b3873000a0c0a027631120653656372657412240a120a02733112001a0022002a00320038004200120c0a02707712067333637233741a001a002200',
    fromDryRun: true,
    json: {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 's1', creationTimestamp: null },
      data: { pw: 'czNjcjN0' },
    },
  },
  {
    command: 'kubectl create namespace ns1',
    path: '/api/v1/namespaces',
    protobufHex:
      '6b3873000a0f0a02763112094e616d657370616365121b0a130a036e733112001a0022002a0032003800420012001a020a001a002200',
    fromDryRun: true,
    json: {
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'ns1', creationTimestamp: null },
      spec: {},
      status: {},
    },
  },
  {
    command: 'kubectl create serviceaccount sa1',
    path: '/api/v1/namespaces/default/serviceaccounts',
    protobufHex:
      '6b3873000a140a027631120e536572766963654163636f756e7412150a130a0373613112001a0022002a003200380042001a002200',
    fromDryRun: true,
    json: {
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'sa1', creationTimestamp: null },
    },
  },
  {
    command: 'kubectl create deployment d1 --image=nginx --replicas=0 --port=80',
    path: '/apis/apps/v1/namespaces/default/deployments',
    protobufHex:
      '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412b4010a1d0a02643112001a0022002a003200380042005a090a03617070120264311284010800120b0a090a03617070120264311a6b0a1b0a0012001a0022002a003200380042005a090a0361707012026431124c122e0a056e67696e7812056e67696e782a00320a0a001000185022002a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200',
    fromDryRun: true,
    json: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd1', creationTimestamp: null, labels: { app: 'd1' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'd1' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'd1' } },
          spec: {
            containers: [
              { name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} },
            ],
          },
        },
        strategy: {},
      },
      status: {},
    },
  },
  {
    command: 'kubectl create service clusterip svc1 --tcp=80:8080',
    path: '/api/v1/namespaces/default/services',
    protobufHex:
      '6b3873000a0d0a027631120753657276696365126c0a210a047376633112001a0022002a003200380042005a0b0a0361707012047376633112430a1b0a0738302d38303830120354435018502207080010903f1a002800120b0a036170701204737663311a002209436c757374657249503a00420052005a00600068001a020a001a002200',
    fromDryRun: true,
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc1', creationTimestamp: null, labels: { app: 'svc1' } },
      spec: {
        ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
        selector: { app: 'svc1' },
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create service nodeport svc2 --tcp=80:http',
    path: '/api/v1/namespaces/default/services',
    protobufHex:
      '6b3873000a0d0a027631120753657276696365126e0a210a047376633212001a0022002a003200380042005a0b0a0361707012047376633212450a1e0a0738302d6874747012035443501850220a080110001a04687474702800120b0a036170701204737663321a0022084e6f6465506f72743a00420052005a00600068001a020a001a002200',
    fromDryRun: true,
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc2', creationTimestamp: null, labels: { app: 'svc2' } },
      spec: {
        ports: [{ name: '80-http', protocol: 'TCP', port: 80, targetPort: 'http' }],
        selector: { app: 'svc2' },
        type: 'NodePort',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create job j1 --image=busybox -- echo hi',
    path: '/apis/batch/v1/namespaces/default/jobs',
    protobufHex:
      '6b3873000a0f0a0862617463682f763112034a6f621284010a120a026a3112001a0022002a00320038004200126432620a100a0012001a0022002a00320038004200124e122b0a026a31120762757379626f781a046563686f1a0268692a0042006a007200800100880100900100a201001a054e65766572320042004a0052005800600068008201008a01009a0100c201001a082000280030003a001a002200',
    fromDryRun: true,
    json: {
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: { name: 'j1', creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: {
            containers: [{ name: 'j1', image: 'busybox', command: ['echo', 'hi'], resources: {} }],
            restartPolicy: 'Never',
          },
        },
      },
      status: {},
    },
  },
  {
    command: 'kubectl create cronjob cj1 --image=busybox --schedule="*/5 * * * *" -- date',
    path: '/apis/batch/v1/namespaces/default/cronjobs',
    protobufHex:
      '6b3873000a130a0862617463682f7631120743726f6e4a6f6212a7010a130a03636a3112001a0022002a00320038004200128d010a0b2a2f35202a202a202a202a1a002a7c0a130a03636a3112001a0022002a00320038004200126532630a100a0012001a0022002a00320038004200124f12280a03636a31120762757379626f781a04646174652a0042006a007200800100880100900100a201001a094f6e4661696c757265320042004a0052005800600068008201008a01009a0100c201001a001a002200',
    fromDryRun: true,
    json: {
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      metadata: { name: 'cj1', creationTimestamp: null },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          metadata: { name: 'cj1', creationTimestamp: null },
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: {
                containers: [{ name: 'cj1', image: 'busybox', command: ['date'], resources: {} }],
                restartPolicy: 'OnFailure',
              },
            },
          },
        },
      },
      status: {},
    },
  },
  {
    command:
      'kubectl create role r1 --verb=get,list --resource=pods,deployments.apps --resource-name=x',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
    protobufHex:
      '6b3873000a240a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311204526f6c65124f0a120a02723112001a0022002a0032003800420012160a036765740a046c69737412001a04706f647322017812210a036765740a046c6973741204617070731a0b6465706c6f796d656e74732201781a002200',
    fromDryRun: true,
    json: {
      kind: 'Role',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'r1', creationTimestamp: null },
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['x'] },
        {
          verbs: ['get', 'list'],
          apiGroups: ['apps'],
          resources: ['deployments'],
          resourceNames: ['x'],
        },
      ],
    },
  },
  {
    command: 'kubectl create clusterrole cr1 --verb=get --non-resource-url=/healthz',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    protobufHex:
      '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c6512260a130a0363723112001a0022002a00320038004200120f0a036765742a082f6865616c74687a1a002200',
    fromDryRun: true,
    json: {
      kind: 'ClusterRole',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'cr1', creationTimestamp: null },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    },
  },
  {
    command:
      'kubectl create rolebinding rb1 --role=r1 --user=alice --serviceaccount=default:sa1 --group=g1',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
    protobufHex:
      '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b526f6c6542696e64696e6712b4010a130a0372623112001a0022002a00320038004200122a0a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a05616c696365220012280a0547726f75701219726261632e617574686f72697a6174696f6e2e6b38732e696f1a026731220012200a0e536572766963654163636f756e7412001a03736131220764656661756c741a250a19726261632e617574686f72697a6174696f6e2e6b38732e696f1204526f6c651a0272311a002200',
    fromDryRun: true,
    json: {
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'rb1', creationTimestamp: null },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g1' },
        { kind: 'ServiceAccount', name: 'sa1', namespace: 'default' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r1' },
    },
  },
  {
    command: 'kubectl create clusterrolebinding crb1 --clusterrole=cr1 --user=bob',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    protobufHex:
      '6b3873000a320a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311212436c7573746572526f6c6542696e64696e67126f0a140a046372623112001a0022002a0032003800420012280a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a03626f6222001a2d0a19726261632e617574686f72697a6174696f6e2e6b38732e696f120b436c7573746572526f6c651a036372311a002200',
    fromDryRun: true,
    json: {
      kind: 'ClusterRoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'crb1', creationTimestamp: null },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr1' },
    },
  },
  {
    command: 'kubectl create quota q1 --hard=cpu=1,memory=1Gi,pods=2 --scopes=BestEffort',
    path: '/api/v1/namespaces/default/resourcequotas',
    protobufHex:
      '6b3873000a130a027631120d5265736f7572636551756f7461124e0a120a02713112001a0022002a0032003800420012360a0a0a0363707512030a01310a0f0a066d656d6f727912050a033147690a0b0a04706f647312030a0132120a426573744566666f72741a001a002200',
    fromDryRun: true,
    json: {
      kind: 'ResourceQuota',
      apiVersion: 'v1',
      metadata: { name: 'q1', creationTimestamp: null },
      spec: { hard: { cpu: '1', memory: '1Gi', pods: '2' }, scopes: ['BestEffort'] },
      status: {},
    },
  },
  {
    command:
      'kubectl create priorityclass pc1 --value=1000 --description="high" --preemption-policy=Never',
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    protobufHex:
      '6b3873000a250a147363686564756c696e672e6b38732e696f2f7631120d5072696f72697479436c61737312270a130a0370633112001a0022002a0032003800420010e80718002204686967682a054e657665721a002200',
    fromDryRun: true,
    json: {
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'pc1', creationTimestamp: null },
      value: 1000,
      description: 'high',
      preemptionPolicy: 'Never',
    },
  },
  {
    command: 'kubectl create poddisruptionbudget pdb1 --selector=app=x --min-available=50%',
    path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
    protobufHex:
      '6b3873000a200a09706f6c6963792f76311213506f6444697372757074696f6e427564676574123b0a140a047064623112001a0022002a0032003800420012170a09080110001a03353025120a0a080a036170701201781a0a080018002000280030001a002200',
    fromDryRun: true,
    json: {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'pdb1', creationTimestamp: null },
      spec: { minAvailable: '50%', selector: { matchLabels: { app: 'x' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    },
  },
  {
    command:
      'kubectl create ingress ing1 --rule="foo.com/bar*=svc1:8080,tls=secret1" --class=nginx',
    path: '/apis/networking.k8s.io/v1/namespaces/default/ingresses',
    protobufHex:
      '6b3873000a1f0a146e6574776f726b696e672e6b38732e696f2f76311207496e677265737312670a140a04696e673112001a0022002a00320038004200124b12120a07666f6f2e636f6d1207736563726574311a2e0a07666f6f2e636f6d12230a210a1f0a042f626172120f220d0a047376633112050a0010903f1a0650726566697822056e67696e781a020a001a002200',
    fromDryRun: true,
    json: {
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'ing1', creationTimestamp: null },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: ['foo.com'], secretName: 'secret1' }],
        rules: [
          {
            host: 'foo.com',
            http: {
              paths: [
                {
                  path: '/bar',
                  pathType: 'Prefix',
                  backend: { service: { name: 'svc1', port: { number: 8080 } } },
                },
              ],
            },
          },
        ],
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl auth can-i get pods',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    protobufHex:
      '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123c0a100a0012001a0022002a00320038004200121e0a1c0a0764656661756c7412036765741a0022002a04706f647332003a001a08080012001a0020001a002200',
    fromDryRun: false,
    json: {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    },
  },
  {
    command: 'kubectl auth can-i --list',
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    protobufHex:
      '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c657352657669657712230a100a0012001a0022002a0032003800420012090a0764656661756c741a04180022001a002200',
    fromDryRun: false,
    json: {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { namespace: 'default' },
      status: { incomplete: false },
    },
  },
  {
    command:
      'kubectl create secret docker-registry reg1 --docker-server=r.io --docker-username=u --docker-password=p',
    path: '/api/v1/namespaces/default/secrets',
    protobufHex:
      '6b3873000a0c0a0276311206536563726574128d010a140a047265673112001a0022002a0032003800420012550a112e646f636b6572636f6e6669676a736f6e12407b226175746873223a7b22722e696f223a7b22757365726e616d65223a2275222c2270617373776f7264223a2270222c2261757468223a2264547077227d7d7d1a1e6b756265726e657465732e696f2f646f636b6572636f6e6669676a736f6e1a002200',
    fromDryRun: true,
    json: {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'reg1', creationTimestamp: null },
      data: {
        '.dockerconfigjson':
          'eyJhdXRocyI6eyJyLmlvIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicCIsImF1dGgiOiJkVHB3In19fQ==',
      },
      type: 'kubernetes.io/dockerconfigjson',
    },
  },
  {
    command: 'kubectl create token sa1',
    path: '/api/v1/namespaces/default/serviceaccounts/sa1/token',
    protobufHex:
      '6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e52657175657374121a0a100a0012001a0022002a0032003800420012001a040a0012001a002200',
    fromDryRun: false,
    json: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: { token: '', expirationTimestamp: null },
    },
  },
];
