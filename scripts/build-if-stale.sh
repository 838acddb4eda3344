#!/bin/sh
# Builds dist/ when it is missing or older than anything it is built from, so that what runs is never
# stale: `npm start` calls it before every start, and the tests call it before they start the service.
cd "$(dirname "$0")/.." || exit 1
if [ ! -f dist/server.js ] || [ -n "$(find server mcp tools engine docs-site rulepacks package.json package-lock.json scripts/build.js -newer dist/server.js -print -quit)" ]; then
  node scripts/build.js || exit 1
fi
