/**
 * Fastify/ajv validation errors → the 422 issues of the reference (pydantic's wording and `type`
 * names, so clients of the reference read them the same way). A union (`anyOf`) whose value fits
 * exactly one branch by JSON type reports that branch's problem ("start" missing in a time object);
 * otherwise it reports one issue naming the accepted shapes (the union schema's `title`).
 */
import type { ErrorObject } from 'ajv';
import type { Loc, ValidationIssue } from './error-status.js';

export function issuesFromAjv(errors: readonly ErrorObject[], part: 'body' | 'query', data?: unknown): ValidationIssue[] {
  if (part === 'body' && data === undefined) return [{ loc: ['body'], msg: 'Field required', type: 'missing' }];
  const issues = pick(errors, '#').map((e) => toIssue(e, part));
  // One issue per loc and type (ajv may report the same place twice through several branches).
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = JSON.stringify([i.loc, i.type]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The errors to report for the schema at `schemaPath`: unions resolved to a branch where possible. */
function pick(errors: readonly ErrorObject[], schemaPath: string): ErrorObject[] {
  const mine = errors.filter((e) => e.schemaPath.startsWith(`${schemaPath}/`) || e.schemaPath === schemaPath);
  const union = mine.find((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && !isInsideOtherUnion(e, mine));
  if (!union) return mine.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const branchErrors = new Map<string, ErrorObject[]>();
  for (const e of mine) {
    const m = e.schemaPath.slice(union.schemaPath.length).match(/^\/(\d+)\//);
    if (!m) continue;
    const list = branchErrors.get(m[1]!) ?? [];
    list.push(e);
    branchErrors.set(m[1]!, list);
  }
  const fitting = [...branchErrors.entries()].filter(
    ([, list]) =>
      !list.some(
        (e) => e.instancePath === union.instancePath && (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum') && isBranchRoot(e, union),
      ),
  );
  const others = mine.filter((e) => !e.schemaPath.startsWith(`${union.schemaPath}/`) && e !== union);
  if (fitting.length === 1) return [...others, ...pick(errors, `${union.schemaPath}/${fitting[0]![0]}`)];
  return [...others, union];
}

/** Whether e is a check on the branch's root value (`…/anyOf/1/type`), not deeper. */
function isBranchRoot(e: ErrorObject, union: ErrorObject): boolean {
  return /^\/\d+\/(type|const|enum)$/.test(e.schemaPath.slice(union.schemaPath.length));
}

function isInsideOtherUnion(e: ErrorObject, all: readonly ErrorObject[]): boolean {
  return all.some((o) => o !== e && (o.keyword === 'anyOf' || o.keyword === 'oneOf') && e.schemaPath.startsWith(`${o.schemaPath}/`));
}

function locOf(instancePath: string): Loc {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

const TYPE_WORDS: Record<string, [string, string]> = {
  string: ['Input should be a valid string', 'string_type'],
  number: ['Input should be a valid number', 'float_type'],
  integer: ['Input should be a valid integer', 'int_type'],
  boolean: ['Input should be a valid boolean', 'bool_type'],
  object: ['Input should be a valid dictionary or object', 'dict_type'],
  array: ['Input should be a valid list', 'list_type'],
  null: ['Input should be None', 'none_required'],
};

function quoted(v: unknown): string {
  return typeof v === 'string' ? `'${v}'` : JSON.stringify(v);
}

function toIssue(e: ErrorObject, part: 'body' | 'query'): ValidationIssue {
  const loc: Loc = [part, ...locOf(e.instancePath)];
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { loc: [...loc, String(p.missingProperty)], msg: 'Field required', type: 'missing' };
    case 'additionalProperties':
      return { loc: [...loc, String(p.additionalProperty)], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
    case 'type': {
      const first = String(p.type).split(',')[0]!;
      const [msg, type] = TYPE_WORDS[first] ?? [`Input should be of type ${String(p.type)}`, 'type_error'];
      return { loc, msg, type };
    }
    case 'const':
      return { loc, msg: `Input should be ${quoted(p.allowedValue)}`, type: 'literal_error' };
    case 'enum': {
      const values = (p.allowedValues as unknown[]).map(quoted);
      const list = values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
      return { loc, msg: `Input should be ${list}`, type: 'enum' };
    }
    case 'minItems':
      return { loc, msg: `List should have at least ${String(p.limit)} items`, type: 'too_short' };
    case 'maxItems':
      return { loc, msg: `List should have at most ${String(p.limit)} items`, type: 'too_long' };
    case 'minLength':
      return { loc, msg: `String should have at least ${String(p.limit)} characters`, type: 'string_too_short' };
    case 'maxLength':
      return { loc, msg: `String should have at most ${String(p.limit)} characters`, type: 'string_too_long' };
    case 'anyOf':
    case 'oneOf': {
      const title = (e.parentSchema as { title?: string } | undefined)?.title;
      return { loc, msg: `Input should be ${title ?? 'one of the accepted shapes'}`, type: 'union_error' };
    }
    default:
      return { loc, msg: e.message ?? 'Invalid input', type: e.keyword };
  }
}
