#!/usr/bin/env node
// What npx runs: the project's own bin/explain.js.
import '../../../bin/explain.js';
