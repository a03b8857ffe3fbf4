#!/usr/bin/env bash
# Build ethicsbot as one static Linux binary: cgo for SQLite, linked with -static, the
# pure-Go user and DNS lookups (osusergo, netgo) so that no glibc NSS module is loaded at
# run time, and SQLite's extension loading left out. Stamps the version (VERSION, default
# `git describe`), the commit and its time (from Git, when built in a clone or a worktree)
# and the build date (SOURCE_DATE_EPOCH if set, else now), so that `ethicsbot version`
# does not depend on the Go command's VCS stamping. Usage: deploy/build-static.sh [OUT]
# (default ./ethicsbot).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-ethicsbot}
# The Go release go.mod names, fetched from the module proxy where the machine's Go is older.
GOTOOLCHAIN=${GOTOOLCHAIN:-$(sed -n 's/^toolchain //p' go.mod)}
export GOTOOLCHAIN
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
else
  date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
stamp="-X ethicsbot/version.version=$version -X ethicsbot/version.buildDate=$date"
# The commit is stamped only from a clean tree: a build with uncommitted changes is not
# that commit, and leaves it to the Go command, which says "with uncommitted changes".
if commit=$(git rev-parse HEAD 2>/dev/null) && git diff-index --quiet HEAD -- 2>/dev/null; then
  ctime=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ HEAD)
  stamp="$stamp -X ethicsbot/version.commit=$commit -X ethicsbot/version.commitTime=$ctime"
fi
CGO_ENABLED=1 go build -trimpath -buildvcs=auto \
  -tags osusergo,netgo,sqlite_omit_load_extension \
  -ldflags "-linkmode external -extldflags -static -s -w $stamp" \
  -o "$out" .
echo "built $out ($version, static)"
