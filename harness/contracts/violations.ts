// Turns ajv's errors into violations a person can act on: the JSON pointer,
// what was expected and what was found in words, the spec section and the
// level, read from the contracts' x-spec / x-level / x-expected annotations.
import type { ErrorObject } from 'ajv';
import type { Level } from '../results/model.ts';
import type { SchemaNode } from './load.ts';

export interface Violation {
  /** JSON pointer (RFC 6901) of the offending value, '' for the whole item. */
  pointer: string;
  expected: string;
  found: string;
  /** Section of the service spec (or a page of docs/, e.g. docs/profile.md) that states the rule. */
  spec: string;
  level: Level;
  /** Stable name of the rule: `schema.<keyword>` or a rule id of rules.ts. */
  rule: string;
}

/** A value in a few words, for the `found` side of a violation. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (typeof v === 'string') return `${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)} (a string)`;
  if (typeof v === 'number') return `${v} (a number)`;
  if (typeof v === 'boolean') return `${v} (a boolean)`;
  if (Array.isArray(v)) return `an array of ${v.length} item${v.length === 1 ? '' : 's'}`;
  return `an object with ${Object.keys(v as object).length} field${Object.keys(v as object).length === 1 ? '' : 's'}`;
}

const ARTICLE: Record<string, string> = { object: 'an object', array: 'an array', integer: 'an integer', null: 'null',
  string: 'a string', number: 'a number', boolean: 'a boolean' };
const FORMATS: Record<string, string> = {
  'date': 'a calendar date written YYYY-MM-DD',
  'date-time': 'an RFC 3339 date-time',
  'uri': 'an absolute URI',
  'uri-reference': 'a URI',
};

function list(values: readonly unknown[]): string {
  const shown = values.slice(0, 10).map(v => JSON.stringify(v)).join(', ');
  return values.length > 10 ? `${shown}, ... (${values.length} values)` : shown;
}

function expectedOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const note = (e.parentSchema as SchemaNode | undefined)?.['x-expected'];
  if (typeof note === 'string' && e.keyword !== 'required') return note;
  switch (e.keyword) {
    case 'required': return `field "${p.missingProperty}" present`;
    case 'type': return String(p.type).split(',').map(t => ARTICLE[t] ?? t).join(' or ');
    case 'enum': return `one of ${list(p.allowedValues as unknown[])}`;
    case 'const': return JSON.stringify(p.allowedValue);
    case 'pattern': return `a string matching ${p.pattern}`;
    case 'format': return FORMATS[String(p.format)] ?? `format ${p.format}`;
    case 'minLength': return p.limit === 1 ? 'a non-empty string' : `at least ${p.limit} characters`;
    case 'maxLength': return `at most ${p.limit} characters`;
    case 'minItems': return `at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'minProperties': return `at least ${p.limit} field${p.limit === 1 ? '' : 's'}`;
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return `a number ${p.comparison} ${p.limit}`;
    case 'not': case 'false schema': return 'this field absent';
    default: return e.message ?? e.keyword;
  }
}

/** Follows a $ref from a schema document; `base` is the $id of the document the ref appears in. */
function deref(node: SchemaNode, base: string, documents: Map<string, SchemaNode>): { node: SchemaNode; base: string } {
  let seen = 0;
  while (typeof node.$ref === 'string' && seen++ < 10) {
    const url = new URL(node.$ref, base);
    const docId = url.href.replace(/#.*$/, '');
    let target: unknown = documents.get(docId);
    for (const seg of url.hash.replace(/^#\/?/, '').split('/').filter(Boolean)) target = (target as SchemaNode | undefined)?.[decodeURIComponent(seg)];
    if (!target || typeof target !== 'object') break;
    node = target as SchemaNode;
    base = docId;
  }
  return { node, base };
}

/** The child schema for one step of an instance path (properties, items, or inside allOf/anyOf branches). */
function child(node: SchemaNode, seg: string): SchemaNode | undefined {
  const props = node.properties as Record<string, SchemaNode> | undefined;
  if (props && typeof props[seg] === 'object') return props[seg];
  if (/^\d+$/.test(seg) && node.items && typeof node.items === 'object') return node.items as SchemaNode;
  const additional = node.additionalProperties;
  if (additional && typeof additional === 'object') return additional as SchemaNode;
  return undefined;
}

/**
 * The spec section and level that govern a pointer: the innermost x-spec and
 * x-level on the way from the contract's root schema down the instance path.
 */
function annotationsAt(root: SchemaNode, rootId: string, segments: string[], documents: Map<string, SchemaNode>): { spec: string; level: Level } {
  let spec = String(root['x-spec'] ?? '');
  let level = (root['x-level'] as Level | undefined) ?? 'must';
  let cur: { node: SchemaNode; base: string } = { node: root, base: rootId };
  const note = (n: SchemaNode) => {
    if (typeof n['x-spec'] === 'string') spec = n['x-spec'];
    if (typeof n['x-level'] === 'string') level = n['x-level'] as Level;
  };
  // Annotations beside a $ref and in the schema it points to both count; the innermost wins.
  const enter = () => { note(cur.node); cur = deref(cur.node, cur.base, documents); note(cur.node); };
  for (const seg of segments) {
    enter();
    const next = child(cur.node, seg);
    if (!next) return { spec, level };
    cur = { node: next, base: cur.base };
  }
  enter();
  return { spec, level };
}

function splitPointer(p: string): string[] {
  return p.split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * ajv errors -> violations: one per pointer (the first error at a pointer
 * says most; a wrong type makes the enum error at the same place noise), and
 * the branch errors of a failed anyOf folded into the anyOf itself.
 */
export function toViolations(errors: readonly ErrorObject[], root: SchemaNode, rootId: string, documents: Map<string, SchemaNode>): Violation[] {
  const anyOfAt = new Set(errors.filter(e => e.keyword === 'anyOf').map(e => e.instancePath));
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && anyOfAt.has(e.instancePath) && e.keyword !== 'required') continue;
    const missing = e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : undefined;
    const pointer = missing === undefined ? e.instancePath : `${e.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const where = annotationsAt(root, rootId, splitPointer(pointer), documents);
    const parent = e.parentSchema as SchemaNode | undefined;
    out.push({
      pointer,
      expected: expectedOf(e),
      found: missing === undefined ? describeValue(e.data) : 'absent',
      spec: typeof parent?.['x-spec'] === 'string' && e.keyword === 'required' ? parent['x-spec'] as string : where.spec,
      level: typeof parent?.['x-level'] === 'string' ? parent['x-level'] as Level : where.level,
      rule: `schema.${e.keyword.replace(/ /g, '-')}`,
    });
  }
  return out;
}
