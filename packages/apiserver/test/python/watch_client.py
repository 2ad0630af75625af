"""Drives the local API server with the official Python client (Debian's python3-kubernetes).

Usage: python3 watch_client.py KUBECONFIG. Prints one JSON object: what a list, a watch (the
client sends watch=True and allowWatchBookmarks=True, Python's spelling of booleans) and a
refused create returned.
"""

import json
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
result = {}

core.create_namespaced_config_map(
    "default", {"metadata": {"name": "from-python"}, "data": {"a": "1"}}
)
listed = core.list_namespaced_config_map("default", limit=1)
result["listed"] = [item.metadata.name for item in listed.items]

events = []
stream = watch.Watch()
for event in stream.stream(
    core.list_namespaced_config_map,
    "default",
    field_selector="metadata.name=from-python",
    allow_watch_bookmarks=True,
    timeout_seconds=5,
):
    # kube-apiserver ends a watch's initial ADDED events with a bookmark (annotated
    # k8s.io/initial-events-end) when bookmarks are allowed; the client hands it over as a dict.
    if event["type"] == "BOOKMARK":
        continue
    events.append([event["type"], event["object"].metadata.name])
    if len(events) == 1:
        core.patch_namespaced_config_map(
            "from-python", "default", {"data": {"a": "2"}}
        )
    else:
        stream.stop()
result["events"] = events

try:
    core.create_namespaced_config_map(
        "default", {"metadata": {"name": "bad", "labels": "x"}}
    )
except ApiException as error:
    result["refused"] = {"status": error.status, "message": json.loads(error.body)["message"]}

print(json.dumps(result))
