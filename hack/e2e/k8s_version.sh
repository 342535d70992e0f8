# Sourced by build_kubelet.sh and build_cluster.sh: from the Debian package version in $VERSION,
# the upstream one (1.20.5+really1.20.2-1 -> 1.20.2) in $UPSTREAM and the -ldflags that stamp it
# into the binaries (what `kubelet --version` and the apiserver's /version report) in $LDFLAGS.
UPSTREAM=$(echo "$VERSION" | sed -E 's/^[0-9]+://; s/-[^-]*$//; s/.*really//')
MAJOR=${UPSTREAM%%.*}; REST=${UPSTREAM#*.}; MINOR=${REST%%.*}
LDFLAGS=""
for pkg in k8s.io/kubernetes/vendor/k8s.io/component-base/version k8s.io/kubernetes/vendor/k8s.io/client-go/pkg/version; do
  LDFLAGS+=" -X $pkg.gitVersion=v$UPSTREAM -X $pkg.gitMajor=$MAJOR -X $pkg.gitMinor=$MINOR -X $pkg.gitTreeState=clean"
done
