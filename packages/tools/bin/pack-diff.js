#!/usr/bin/env node
// What npx runs: the project's own bin/pack-diff.js.
import '../../../bin/pack-diff.js';
