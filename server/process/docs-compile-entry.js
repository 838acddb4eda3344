// The docs compile thread starts here when the service runs from its sources: plain JavaScript that
// teaches the thread TypeScript, then loads it. The build bundles server/process/docs-compile.ts under this name.
import { register } from 'tsx/esm/api';

register();
await import('./docs-compile.ts');
