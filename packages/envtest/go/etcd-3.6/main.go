// etcd, built by @ops/envtest (src/control-plane-assets.ts) from the pinned
// go.etcd.io/etcd/server/v3: the same entry point as etcd's own binary.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
