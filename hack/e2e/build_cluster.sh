#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler and kubectl from the same Debian
# `kubernetes` source tree build_kubelet.sh unpacks (its GOPATH and Go build cache too, so each
# binary takes a minute or two once the kubelet is built), and installs Debian's etcd-server
# without leaving a system etcd running. Everything built stays under $CACHE (default .cache/e2e).
# Prints the directory holding kubelet, the four binaries and a link to etcd as its last line.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${CACHE:-$(pwd)/.cache/e2e}
export CACHE

# The kubelet (and with it the unpacked tree) first: .cache/e2e/kubelet-VERSION/kubelet.
KUBELET=$("$HERE/build_kubelet.sh" | tail -n1)
VERSION=$(basename "$(dirname "$KUBELET")"); VERSION=${VERSION#kubelet-}
GOPATH_DIR="$CACHE/gopath"
TREE="$GOPATH_DIR/src/k8s.io/kubernetes"
[ -d "$TREE/cmd/kube-apiserver" ] || { echo "build_cluster: no source tree at $TREE" >&2; exit 1; }
OUT="$CACHE/cluster-$VERSION"
mkdir -p "$OUT"

# etcd from Debian. Its postinst starts a system etcd unless policy-rc.d forbids it: forbid it for
# the install (keeping a policy-rc.d the machine already has), and make sure none runs afterwards.
install_etcd() {
  local policy=/usr/sbin/policy-rc.d made_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# build_cluster.sh: no service starts while etcd-server installs\nexit 101\n' > "$policy"
    chmod 755 "$policy"; made_policy=1
  fi
  local status=0
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends etcd-server >/dev/null) >&2 || status=$?
  [ -z "$made_policy" ] || rm -f "$policy"
  [ "$status" -eq 0 ] || { echo "build_cluster: apt-get install etcd-server failed ($status)" >&2; exit 1; }
}
stop_system_etcd() {
  if [ -d /run/systemd/system ]; then
    systemctl disable --now etcd.service >/dev/null 2>&1 || true
  elif [ -x /etc/init.d/etcd ]; then
    /etc/init.d/etcd stop >/dev/null 2>&1 || true
    update-rc.d etcd disable >/dev/null 2>&1 || true
  fi
  if ss -ltnH 'sport = :2379' | grep -q .; then
    echo "build_cluster: something still listens on :2379 after stopping the etcd service:" >&2
    ss -ltnpH 'sport = :2379' >&2
    exit 1
  fi
}
if ! command -v etcd >/dev/null 2>&1; then
  install_etcd
fi
stop_system_etcd
ln -sfn "$(command -v etcd)" "$OUT/etcd"
ln -sfn "$KUBELET" "$OUT/kubelet"

# kube-apiserver compiles the OpenAPI definitions the tarball lacks; `make gen_openapi` generates
# them offline (it copies with rsync). Done once per tree.
if [ ! -f "$TREE/pkg/generated/openapi/zz_generated.openapi.go" ]; then
  command -v rsync >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rsync >/dev/null) >&2
  echo "build_cluster: make gen_openapi in $TREE" >&2
  (cd "$TREE" && GOPATH="$GOPATH_DIR" GOCACHE="$CACHE/gocache" GOFLAGS= make gen_openapi) >&2
fi

. "$HERE/k8s_version.sh"
for cmd in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
  [ -x "$OUT/$cmd" ] && continue
  echo "build_cluster: building $cmd v$UPSTREAM" >&2
  (cd "$TREE" && GOPATH="$GOPATH_DIR" GOCACHE="$CACHE/gocache" GO111MODULE=off CGO_ENABLED=0 GOFLAGS= \
    go build -ldflags "$LDFLAGS" -o "$OUT/$cmd.partial" "./cmd/$cmd")
  mv "$OUT/$cmd.partial" "$OUT/$cmd"
done
echo "$OUT"
