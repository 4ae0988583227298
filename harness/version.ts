import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** The `tool` object of results.json (docs/report.md). */
export const TOOL = { name: pkg.name, version: pkg.version } as const;
