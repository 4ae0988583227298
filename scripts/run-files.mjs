#!/usr/bin/env node
// Runs test files with Node's test runner in the order given (scripts/test.mjs
// puts the longest first): `node run-files.mjs CONCURRENCY FILE...`. Each file
// runs in a child process started with this process's flags (--import tsx),
// as `node --test` does; the report goes to stdout as `node --test` writes it
// (spec on a terminal, TAP otherwise); the exit status is 1 when a test failed.
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { resolve } from 'node:path';

const [concurrency, ...files] = process.argv.slice(2);
const stream = run({ files: files.map(f => resolve(f)), concurrency: Number(concurrency) });
stream.on('test:fail', () => { process.exitCode = 1; });
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
