// Placeholder while the command is being built in this session; replaced by its real implementation.
import { HarnessError } from '../errors.ts';
import type { Command } from './command.ts';

export const command: Command = {
  name: 'validate',
  help: 'Usage: pis-conformance validate (not built yet)',
  async run() { throw new HarnessError('PIS_UNKNOWN_COMMAND', "'validate' is not built yet: use validate, report or serve-reference."); },
};
