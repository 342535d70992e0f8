#!/usr/bin/env bash
# Builds kubelet from Debian's `kubernetes` source package, once per source version.
# Everything (apt lists, the source tree, GOPATH, Go's build cache, the binary) stays under
# $CACHE (default .cache/e2e); the system's apt configuration is only read, never changed.
# Prints the path of the kubelet binary on stdout as its last line.
set -euo pipefail

CACHE=${CACHE:-$(pwd)/.cache/e2e}
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
mkdir -p "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial" "$CACHE/apt/sources.list.d" "$CACHE/src"

# A private apt setup whose only entry is the deb-src line for Debian's kubernetes package.
echo "deb-src $MIRROR $SUITE main" > "$CACHE/apt/sources.list"
APT_OPTS=(-o "Dir::Etc::SourceList=$CACHE/apt/sources.list"
          -o "Dir::Etc::SourceParts=$CACHE/apt/sources.list.d"
          -o "Dir::State::Lists=$CACHE/apt/lists"
          -o "Dir::Cache=$CACHE/apt/cache"
          -o "APT::Sandbox::User=root")

if ! ls "$CACHE"/apt/lists/*Sources* >/dev/null 2>&1; then
  apt-get "${APT_OPTS[@]}" update -qq >&2
fi
VERSION=$(apt-cache "${APT_OPTS[@]}" showsrc kubernetes | sed -n 's/^Version: //p' | head -n1)
[ -n "$VERSION" ] || { echo "build_kubelet: no kubernetes source package in $SUITE" >&2; exit 1; }
OUT="$CACHE/kubelet-$VERSION"
if [ -x "$OUT/kubelet" ]; then echo "$OUT/kubelet"; exit 0; fi

# The source tree: unpacked once per version.
TREE=$(find "$CACHE/src" -maxdepth 1 -mindepth 1 -type d -name "kubernetes-*" | head -n1 || true)
if [ -z "$TREE" ] || [ ! -f "$CACHE/src/.unpacked-$VERSION" ]; then
  rm -rf "$CACHE/src" && mkdir -p "$CACHE/src"
  (cd "$CACHE/src" && apt-get "${APT_OPTS[@]}" source -qq "kubernetes=$VERSION" >&2)
  TREE=$(find "$CACHE/src" -maxdepth 1 -mindepth 1 -type d -name "kubernetes-*" | head -n1)
  touch "$CACHE/src/.unpacked-$VERSION"
fi

# The 1.20 tree predates module builds: GOPATH mode, with the tree at its import path.
GOPATH_DIR="$CACHE/gopath"
mkdir -p "$GOPATH_DIR/src/k8s.io"
ln -sfn "$TREE" "$GOPATH_DIR/src/k8s.io/kubernetes"
. "$(dirname "$0")/k8s_version.sh"
mkdir -p "$OUT"
echo "build_kubelet: building kubelet v$UPSTREAM (Debian $VERSION); about 15 minutes on 2 cores" >&2
(cd "$GOPATH_DIR/src/k8s.io/kubernetes" && \
  GOPATH="$GOPATH_DIR" GOCACHE="$CACHE/gocache" GO111MODULE=off CGO_ENABLED=0 GOFLAGS= \
  go build -ldflags "$LDFLAGS" -o "$OUT/kubelet.partial" ./cmd/kubelet)
mv "$OUT/kubelet.partial" "$OUT/kubelet"
echo "$OUT/kubelet"
