import { writeFileSync } from 'node:fs';
import { CLIENT_DESCRIPTION_FILE, DESCRIPTION_FILE, EVERYTHING_SERVED, servedDescription } from './default-service.ts';

// `npm run openapi:write`: commit what the default service serves, and what it serves with everything
// on (the client's types are generated from that); a test checks both files stay equal to them.
writeFileSync(DESCRIPTION_FILE, await servedDescription());
process.stdout.write(`wrote ${DESCRIPTION_FILE}\n`);
writeFileSync(CLIENT_DESCRIPTION_FILE, await servedDescription(EVERYTHING_SERVED));
process.stdout.write(`wrote ${CLIENT_DESCRIPTION_FILE}\n`);
