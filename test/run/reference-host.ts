// The bundled references of one batch (test/run/batch.ts), in a process of
// their own as each `run --fault NAME` has its own: serving three parts' calls
// and signing their tokens from the test's one event loop slowed the answers
// on a loaded machine past a compressed clock's token lifetime.
// `node --import tsx reference-host.ts JSON`: JSON is a list of
// { faults, timeScale, webhookApiKey, apiVersion }; one line of JSON on stdout
// gives each reference's config, in order; the references close and the
// process ends when stdin ends (its parent closed it, or died).
import { startBundled, type Bundled } from '../../harness/runner/bundled.ts';
import type { ApiVersion } from '../../harness/contracts/api-versions.ts';

interface Asked { faults: string[]; timeScale: number; webhookApiKey: string; apiVersion: ApiVersion }

const asked = JSON.parse(process.argv[2] ?? '[]') as Asked[];
const refs: Bundled[] = [];
for (const a of asked) refs.push(await startBundled(a));
process.stdout.write(JSON.stringify(refs.map(r => r.config)) + '\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void Promise.all(refs.map(r => r.close())).finally(() => process.exit(0));
});
