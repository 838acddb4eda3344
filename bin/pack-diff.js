#!/usr/bin/env node
// Plain JavaScript so that it runs under node directly (see run-tool.js).
import { runTool } from './run-tool.js';

await runTool('pack-diff');
