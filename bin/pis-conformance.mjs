#!/usr/bin/env node
// Entry point of the installed binary. It runs harness/cli.ts in this very
// process: from the compiled copy of bin/compiled.mjs when there is a fresh
// one, else through tsx's loader registered here, so the TypeScript sources
// are what runs (no build step to remember). Either way the command is this
// process: a signal sent to this pid (Ctrl-C, a CI runner's SIGTERM or
// SIGKILL) reaches the command once, and nothing is left running when this
// process dies.
import { compiledCli } from './compiled.mjs';

const compiled = await compiledCli();
if (compiled) await import(compiled);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../harness/cli.ts');
}
