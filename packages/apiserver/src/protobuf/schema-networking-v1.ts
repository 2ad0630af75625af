import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/networking/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const networkingV1Schemas: SchemaTable = {
  'networking.Ingress': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec networking.IngressSpec',
    3: 'status networking.IngressStatus',
  },
  'networking.IngressSpec': {
    1: 'defaultBackend networking.IngressBackend',
    2: 'tls []networking.IngressTLS',
    3: 'rules []networking.IngressRule',
    4: 'ingressClassName string keep',
  },
  'networking.IngressStatus': {
    1: 'loadBalancer networking.IngressLoadBalancerStatus',
  },
  'networking.IngressBackend': {
    3: 'resource core.TypedLocalObjectReference',
    4: 'service networking.IngressServiceBackend',
  },
  'networking.IngressTLS': {
    1: 'hosts []string',
    2: 'secretName string',
  },
  'networking.IngressRule': {
    1: 'host string',
    2: 'ingressRuleValue networking.IngressRuleValue inline',
  },
  'networking.IngressLoadBalancerStatus': {
    1: 'ingress []networking.IngressLoadBalancerIngress',
  },
  'networking.IngressServiceBackend': {
    1: 'name string keep',
    2: 'port networking.ServiceBackendPort',
  },
  'networking.IngressRuleValue': {
    1: 'http networking.HTTPIngressRuleValue',
  },
  'networking.IngressLoadBalancerIngress': {
    1: 'ip string',
    2: 'hostname string',
    4: 'ports []networking.IngressPortStatus',
  },
  'networking.ServiceBackendPort': {
    1: 'name string',
    2: 'number int32',
  },
  'networking.HTTPIngressRuleValue': {
    1: 'paths []networking.HTTPIngressPath',
  },
  'networking.IngressPortStatus': {
    1: 'port int32 keep',
    2: 'protocol string keep',
    3: 'error string keep',
  },
  'networking.HTTPIngressPath': {
    1: 'path string',
    2: 'backend networking.IngressBackend',
    3: 'pathType string keep',
  },
};
