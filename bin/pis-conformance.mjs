#!/usr/bin/env node
// Entry point of the installed binary: runs harness/cli.ts through tsx's loader,
// so the TypeScript sources are what runs (no build step).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsx = import.meta.resolve('tsx');
const cli = join(root, 'harness', 'cli.ts');
const r = spawnSync(process.execPath, ['--import', tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? (r.signal ? 130 : 2));
