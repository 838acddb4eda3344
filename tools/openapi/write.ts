import { writeFileSync } from 'node:fs';
import { DESCRIPTION_FILE, servedDescription } from './default-service.ts';

// `npm run openapi:write`: commit what the default service serves; a test checks the file stays equal to it.
writeFileSync(DESCRIPTION_FILE, await servedDescription());
process.stdout.write(`wrote ${DESCRIPTION_FILE}\n`);
