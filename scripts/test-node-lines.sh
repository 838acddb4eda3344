#!/usr/bin/env bash
# `npm run test:node-lines [-- 22 24 26]`: the whole suite on each supported Node.js line, not only on
# the machine's own, with the binaries scripts/fetch-node-lines.sh keeps in a cache outside the
# repository.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(22 24 26)
scripts/fetch-node-lines.sh "${lines[@]}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tax-rules-api/node-lines"
failed=()
for line in "${lines[@]}"; do
  bin="$cache/$line/package/bin"
  echo "test:node-lines: npm test on Node.js $("$bin/node" --version)"
  # npm, tsx and every process the tests spawn find this node first.
  if PATH="$bin:$PATH" npm test; then echo "test:node-lines: Node.js $line passed"; else failed+=("$line"); fi
done
if [ ${#failed[@]} -gt 0 ]; then echo "test:node-lines: failed on Node.js ${failed[*]}"; exit 1; fi
echo "test:node-lines: passed on Node.js ${lines[*]}"
