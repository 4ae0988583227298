#!/usr/bin/env node
// Entry point of the installed binary. It registers tsx's loader in this very
// process and imports harness/cli.ts, so the TypeScript sources are what runs
// (no build step) and the command is this process: a signal sent to this pid
// (Ctrl-C, a CI runner's SIGTERM or SIGKILL) reaches the command once, and
// nothing is left running when this process dies.
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli.ts');
