#!/usr/bin/env node
// What npx runs: the project's own bin/validate-pack.js.
import '../../../bin/validate-pack.js';
