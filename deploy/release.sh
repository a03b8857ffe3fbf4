#!/usr/bin/env bash
# Make a release from a clean checkout: deploy/release.sh OUTDIR
#
# The version is the newest release section of CHANGELOG.md (`## [1.0.0] - 2026-12-05`),
# never typed: the changelog says what a version holds, so a version it does not describe
# cannot be released. OUTDIR receives, for linux/amd64:
#   ethicsbot-VERSION-linux-amd64.tar.gz  the static binary, the units, the sample
#                                         configuration, the examples and the documentation
#   ethicsbot_VERSION_amd64.deb           the Debian package (nfpm, deploy/nfpm.yaml)
#   ethicsbot-VERSION.cdx.json            the software bill of materials (CycloneDX)
#   SHA256SUMS                            the checksums of the three, for sha256sum -c
# `deploy/release.sh --version` prints the version and does nothing else; `--tools` builds
# the pinned tools into the CI cache and does nothing else (.ci/run, in the background).
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^## \[\([0-9][^]]*\)\] - [0-9-]*.*$/\1/p' CHANGELOG.md | head -n 1)
if [ -z "$version" ]; then
  echo "CHANGELOG.md has no release section (## [X.Y.Z] - YYYY-MM-DD): nothing to release" >&2
  exit 1
fi
if [ "${1:-}" = --version ]; then
  echo "$version"; exit 0
fi
# The tools, pinned, built once into the CI cache with the Go release go.mod names.
GOTOOLCHAIN=${GOTOOLCHAIN:-$(sed -n 's/^toolchain //p' go.mod)}
export GOTOOLCHAIN
NFPM_VERSION=v2.48.0
CYCLONEDX_GOMOD_VERSION=v1.10.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ethicsbot-ci"
nfpm="$cache/nfpm-$NFPM_VERSION/nfpm"
cdx="$cache/cyclonedx-gomod-$CYCLONEDX_GOMOD_VERSION/cyclonedx-gomod"
[ -x "$nfpm" ] || GOBIN=$(dirname "$nfpm") GOFLAGS=-mod=mod \
  go install "github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION"
[ -x "$cdx" ] || GOBIN=$(dirname "$cdx") GOFLAGS=-mod=mod \
  go install "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$CYCLONEDX_GOMOD_VERSION"
if [ "${1:-}" = --tools ]; then
  exit 0
fi
if [ $# -ne 1 ]; then
  echo "usage: deploy/release.sh OUTDIR (or --version, --tools)" >&2; exit 2
fi
out=$1
if ! git diff-index --quiet HEAD --; then
  echo "the checkout has uncommitted changes: a release is made from a commit (git status)" >&2
  exit 1
fi

# Every file's time is the commit's, so that the same commit makes the same archives.
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct HEAD)
export SOURCE_DATE_EPOCH
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

arch=amd64
name="ethicsbot-$version-linux-$arch"
stage="$work/$name"
mkdir -p "$stage/deploy" "$stage/docs"
VERSION=$version bash deploy/build-static.sh "$stage/ethicsbot"
cp deploy/README.md deploy/*.service deploy/*.timer deploy/ethicsbot.example.yml deploy/nginx.conf \
  deploy/litestream.yml deploy/ethicsbot-alerts.yml "$stage/deploy/"
cp docs/*.md "$stage/docs/"
cp README.md CHANGELOG.md "$stage/"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -C "$work" -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz"

VERSION=$version ARCH=$arch BINARY="$stage/ethicsbot" \
  "$nfpm" package --config deploy/nfpm.yaml --packager deb --target "$out/ethicsbot_${version}_$arch.deb"

# The bill of materials of the binary as built: the modules linked into it, as the Go
# command recorded them in the binary, with the Go release.
"$cdx" bin -json -version "$version" -output "$out/ethicsbot-$version.cdx.json" "$stage/ethicsbot"

(cd "$out" && sha256sum "$name.tar.gz" "ethicsbot_${version}_$arch.deb" "ethicsbot-$version.cdx.json" > SHA256SUMS)
ls -l "$out"
