#!/usr/bin/env node
// Plain JavaScript so that it runs under node directly: it registers tsx, then loads the TypeScript tool.
import { register } from 'tsx/esm/api';

register();
await import('../tools/pack-diff/main.ts');
