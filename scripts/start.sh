#!/bin/sh
# `npm start`: rebuild when the compiled service is missing or older than what it is built from,
# then become the server. `exec` matters: npm forwards SIGTERM and SIGINT to its child process only,
# so its child must be the server itself, not a shell that would die and leave the server orphaned.
cd "$(dirname "$0")/.." || exit 1
if [ ! -f dist/server.js ] || [ -n "$(find server engine docs-site rulepacks package.json package-lock.json scripts/build.js -newer dist/server.js -print -quit)" ]; then
  node scripts/build.js || exit 1
fi
# A young generation of 8 MB instead of V8's 16 MB per semi-space keeps the resident size under load
# about 15 MB lower, at little cost: almost everything a request allocates dies young.
exec node --max-semi-space-size=8 dist/server.js
