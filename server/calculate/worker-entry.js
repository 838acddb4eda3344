// Calculation workers start here: plain JavaScript that teaches the thread TypeScript, then loads it.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
