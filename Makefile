# berth — one entry point for installing, building, serving, testing and benchmarking.
SHELL := /bin/bash
.DEFAULT_GOAL := build

# Debian packages berth drives or tests against (see README "Real parts").
DEB_PACKAGES := runc containerd containernetworking-plugins iproute2 iptables busybox-static \
                docker-registry gcc libc6-dev make python3 g++ attr util-linux strace zstd
CONFIG ?= configs/berth.toml

.PHONY: deps build gen images run test bench e2e e2e-cluster lint clean

## deps: install the Debian packages and node modules; quiet and quick when all is there.
deps: node_modules/.installed
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

node_modules/.installed: package.json package-lock.json
	@dpkg-query -W -f='$${Status}' g++ 2>/dev/null | grep -q 'ok installed' || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ make python3 >/dev/null; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## gen: regenerate TypeScript types from api/*.proto (committed under internal/api/gen).
gen:
	rm -rf internal/api/gen
	npx proto-loader-gen-types --keepCase --longs=String --enums=String --defaults --oneofs \
	  --grpcLib=@grpc/grpc-js -I api --outDir=internal/api/gen $$(cd api && find . -name '*.proto' | sed 's|^\./||' | sort)
	# The per-file loader types (one per .proto, named by its base name) are dropped: nothing uses
	# them, and the two api.proto (runtime v1, v1alpha2) and two task.proto wrote the same file,
	# whichever came last winning.
	rm internal/api/gen/*.ts

# The native addon (internal/sys/src): npm ci builds it; rebuild when its sources change.
build/Release/berth_sys.node: binding.gyp $(wildcard internal/sys/src/*) | node_modules/.installed
	npm run install --silent

# bin/berthd's preload (internal/sys/preload): the start-up page-fault cutter and the compact
# placement of V8's heap, preloaded into its Node.
PRELOAD_SO := build/Release/berth_preload.so
$(PRELOAD_SO): $(wildcard internal/sys/preload/*.c) | build/Release/berth_sys.node
	$(CC) -O2 -Wall -Wextra -shared -fPIC -o $@ $^

# berthd's V8 young generation: 1 MiB semi-spaces instead of up to 16 MiB. A daemon that mostly
# waits keeps several MiB less resident for a few more (cheap) scavenges; see the bench's memory rows.
# One V8 background thread instead of Node's 4: each thread that compiles or marks keeps a malloc
# arena of its own, and berthd's small heap gains nothing from more (20 pods: ~1.9 MiB less).
BERTHD_NODE_FLAGS := --max-semi-space-size=1 --v8-pool-size=1

## build: compile TypeScript and the native addon, bundle berthd, write bin/berthd and bin/berthctl.
# bin/berthd runs the bundle (dist/bundle, hack/bundle/bundle.ts) through its loader and V8 code cache,
# made for BERTHD_NODE_FLAGS: the fastest start-up measured (issue 16). dist/cmd/berthd/main.js, which
# the test harness runs, is the same daemon unbundled.
build: deps build/Release/berth_sys.node $(PRELOAD_SO)
	npx tsc -p tsconfig.json
	node dist/hack/proto/descriptors.js
	node dist/hack/bundle/bundle.js dist/bundle $(BERTHD_NODE_FLAGS)
	@mkdir -p bin
	node dist/hack/bundle/launcher.js bin/berthd --preload $(abspath $(PRELOAD_SO)) $(BERTHD_NODE_FLAGS)
	@printf '#!/usr/bin/env node\nrequire("../dist/cmd/berthctl/main.js");\n' > bin/berthctl
	@chmod 0755 bin/berthd bin/berthctl

## images: the reproducible test images (busybox, pause, the 3-layer bench image) under .cache/images.
images: build
	node dist/hack/images/build.js .cache/images

## run: install, build, and serve on the default socket with the default config.
run: build images
	./bin/berthd --config $(CONFIG)

## test: install, build, and run the whole suite (unit + integration, real runc/shim/overlay).
test: build images
	npx jest --ci

bench: build images
	node dist/test/bench/main.js

## e2e: a real kubelet 1.20 (built once from Debian's kubernetes source package into .cache/e2e)
## runs the same pod manifests on berth and on a private containerd; not part of `make test`.
## E2E_ARGS passes flags through, e.g. E2E_ARGS="--runtime berth --check a1,b2".
E2E_DEB_PACKAGES := golang-go dpkg-dev
e2e: build images
	@missing=$$(for p in $(E2E_DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "e2e: installing $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@kubelet=$$(CACHE=$(CURDIR)/.cache/e2e hack/e2e/build_kubelet.sh | tail -n1) && \
	  node dist/test/e2e/main.js --kubelet "$$kubelet" $(E2E_ARGS)

## e2e-cluster: a one-node Kubernetes 1.20 on 127.0.0.1 (etcd from Debian; apiserver, controller-manager,
## scheduler, kubectl and kubelet built once from the same source into .cache/e2e), driven with kubectl
## on berth, then on a private containerd; not part of `make test`. E2E_ARGS="--runtime berth --check k1,k6".
E2E_CLUSTER_DEB_PACKAGES := $(E2E_DEB_PACKAGES) rsync
e2e-cluster: build images
	@missing=$$(for p in $(E2E_CLUSTER_DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "e2e-cluster: installing $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@bin=$$(CACHE=$(CURDIR)/.cache/e2e hack/e2e/build_cluster.sh | tail -n1) && \
	  node dist/test/e2e/cluster/main.js --bin "$$bin" $(E2E_ARGS)

lint: deps
	npx tsc -p tsconfig.json --noEmit

clean:
	rm -rf dist bin build .cache
