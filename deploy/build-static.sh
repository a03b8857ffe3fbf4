#!/usr/bin/env bash
# Build ethicsbot as one static Linux binary: cgo for SQLite, linked with -static, the
# pure-Go user and DNS lookups (osusergo, netgo) so that no glibc NSS module is loaded at
# run time, and SQLite's extension loading left out. Stamps the version (VERSION, default
# `git describe`) and the build date. Usage: deploy/build-static.sh [OUT] (default ./ethicsbot).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-ethicsbot}
# The Go release go.mod names, fetched from the module proxy where the machine's Go is older.
GOTOOLCHAIN=${GOTOOLCHAIN:-$(sed -n 's/^toolchain //p' go.mod)}
export GOTOOLCHAIN
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
CGO_ENABLED=1 go build -trimpath -buildvcs=auto \
  -tags osusergo,netgo,sqlite_omit_load_extension \
  -ldflags "-linkmode external -extldflags -static -s -w -X main.version=$version -X main.buildDate=$date" \
  -o "$out" .
echo "built $out ($version, static)"
