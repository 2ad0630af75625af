"""Drives CEL validation rules of the local API server with the official Python client.

Usage: python3 cel_client.py KUBECONFIG. Creates a CRD with a rule, then a custom resource that
holds it and one that breaks it, and prints one JSON object: the created name and the refused
create's status and message.
"""

import json
import sys
import time

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
client.ApiextensionsV1Api().create_custom_resource_definition(
    {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "limits.cel.ops.dev"},
        "spec": {
            "group": "cel.ops.dev",
            "scope": "Namespaced",
            "names": {"plural": "limits", "singular": "limit", "kind": "Limit", "listKind": "LimitList"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "properties": {
                                "spec": {
                                    "type": "object",
                                    "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}},
                                    "x-kubernetes-validations": [
                                        {
                                            "rule": "self.min <= self.max",
                                            "messageExpression": "'min ' + string(self.min) + ' exceeds max ' + string(self.max)",
                                        }
                                    ],
                                }
                            },
                        }
                    },
                }
            ],
        },
    }
)
custom = client.CustomObjectsApi()


def create(name, spec):
    body = {"apiVersion": "cel.ops.dev/v1", "kind": "Limit", "metadata": {"name": name}, "spec": spec}
    return custom.create_namespaced_custom_object("cel.ops.dev", "v1", "default", "limits", body)


result = {}
for attempt in range(50):
    try:
        result["created"] = create("fits", {"min": 1, "max": 2})["metadata"]["name"]
        break
    except ApiException as error:
        if error.status != 404:
            raise
        time.sleep(0.1)
try:
    create("breaks", {"min": 3, "max": 2})
except ApiException as error:
    result["refused"] = {"status": error.status, "message": json.loads(error.body)["message"]}

print(json.dumps(result))
