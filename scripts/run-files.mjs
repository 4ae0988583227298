#!/usr/bin/env node
// Runs test files with Node's test runner in the order given (scripts/test.mjs
// puts the longest first): `node run-files.mjs CONCURRENCY FILE...`. Each file
// runs in a child process started with this process's flags (--import tsx),
// as `node --test` does; the report goes to stdout as `node --test` writes it
// (spec on a terminal, TAP otherwise); the exit status is 1 when a test failed.
// Each failed test (not the suites above it, which fail because it did) is
// appended as a line of JSON to the file PIS_TEST_FAILURES names, so that
// scripts/test.mjs can end its output with them: a CI log's tail then shows
// which test failed and why, not only the suite around it.
import { appendFileSync } from 'node:fs';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { resolve } from 'node:path';

const [concurrency, ...files] = process.argv.slice(2);
const stream = run({ files: files.map(f => resolve(f)), concurrency: Number(concurrency) });
stream.on('test:fail', ({ name, file, details }) => {
  process.exitCode = 1;
  const error = details.error;
  if (error?.failureType === 'subtestsFailed' || !process.env.PIS_TEST_FAILURES) return;
  const message = String(error?.cause?.message ?? error?.message ?? error);
  appendFileSync(process.env.PIS_TEST_FAILURES, JSON.stringify({ file, name, message }) + '\n');
});
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
