import type { FastifyInstance } from 'fastify';
import { API_PREFIXES, MSG, MULTILINE_KEYWORD } from '../../contract';
import { AppError } from '../errors';

/** The parts of a JSON Schema the guard follows to find a string's own schema. */
interface Schema {
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  [MULTILINE_KEYWORD]?: boolean;
}

export type RequestPart = 'params' | 'querystring' | 'body';

// C0 controls, DEL and lone surrogates (with the u flag a well-formed pair is one code point above
// U+FFFF, so only a surrogate standing alone matches). Free text may hold tab, LF and CR.
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f\ud800-\udfff]/u;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ud800-\udfff]/u;
// eslint-disable-next-line no-control-regex
const ALL_CONTROLS = /[\u0000-\u001f\u007f\ud800-\udfff]/gu;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** A key as a message can show it: controls escaped, long keys cut. */
const printable = (s: string) => {
  const shown = s.replace(ALL_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
};

/** What is wrong with one string, named `field` in the message, or null when it may be sent. */
export function checkString(s: string, field: string, allowLineBreaks: boolean): string | null {
  const found = (allowLineBreaks ? CONTROL_BUT_LINES : ANY_CONTROL).exec(s)?.[0];
  if (found === undefined) return null;
  const cp = found.charCodeAt(0);
  if (cp >= 0xd800 && cp <= 0xdfff) return MSG.invalidUnicode(field, codePoint(found));
  return allowLineBreaks ? MSG.controlCharacterInText(field, codePoint(found)) : MSG.controlCharacter(field, codePoint(found));
}

/** The schema itself and every branch of its anyOf, oneOf and allOf, nested ones too. */
function branches(schema: Schema | undefined): Schema[] {
  const out: Schema[] = [];
  const todo = schema ? [schema] : [];
  for (let s = todo.pop(); s; s = todo.pop()) {
    out.push(s);
    todo.push(...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? []));
  }
  return out;
}

const allowsLineBreaks = (schema: Schema | undefined) => branches(schema).some((s) => s[MULTILINE_KEYWORD] === true);

function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  const all = branches(schema);
  const declared = all.find((s) => s.properties && Object.hasOwn(s.properties, key))?.properties?.[key];
  if (declared) return declared;
  const extra = all.find((s) => typeof s.additionalProperties === 'object')?.additionalProperties;
  return typeof extra === 'object' ? extra : undefined;
}

function itemSchema(schema: Schema | undefined, index: number): Schema | undefined {
  for (const s of branches(schema)) {
    const item = s.prefixItems?.[index] ?? (Array.isArray(s.items) ? s.items[index] : s.items);
    if (item) return item;
  }
  return undefined;
}

/** A value the codecs or the query parser made (objects, arrays), not a raw body (bytes, or the stream of an upload part). */
const isParsed = (v: unknown): v is object =>
  v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && typeof (v as { pipe?: unknown }).pipe !== 'function';

/** An object or array being walked: its path, its schema, and the next of its children to read. */
interface Frame {
  at: string;
  schema: Schema | undefined;
  value: Record<string, unknown> | unknown[];
  /** An object's keys; null for an array. */
  keys: string[] | null;
  next: number;
}

/**
 * The first string of `value` (a request's params, query or parsed body), or key of one of its
 * objects, that holds a C0 control character, DEL or a lone surrogate, in the request's order, as
 * the message that refuses it; null when there is none. Each value is read alongside `schema`, the
 * route's schema of that part: only a string whose own schema carries MULTILINE_KEYWORD may hold
 * tabs and line breaks. Keys never may. Iterative, so any depth the codecs accept is walked without
 * recursion; a string's schema and path are looked up only when it holds a control character.
 */
export function findControlCharacter(part: RequestPart, value: unknown, schema?: unknown): string | null {
  const root = schema as Schema | undefined;
  if (typeof value === 'string') return checkString(value, part, allowsLineBreaks(root));
  const frames: Frame[] = [];
  const enter = (at: string, v: object, s: Schema | undefined): string | null => {
    const keys = Array.isArray(v) ? null : Object.keys(v);
    for (const key of keys ?? []) {
      if (ANY_CONTROL.test(key)) return checkString(key, `${at || part} key "${printable(key)}"`, false);
    }
    frames.push({ at, schema: s, value: v as Frame['value'], keys, next: 0 });
    return null;
  };
  let problem = isParsed(value) ? enter('', value, root) : null;
  while (problem === null && frames.length) {
    const f = frames[frames.length - 1]!;
    const i = f.next++;
    if (i >= (f.keys ?? (f.value as unknown[])).length) {
      frames.pop();
      continue;
    }
    const key = f.keys ? f.keys[i]! : i;
    const x = f.keys ? (f.value as Record<string, unknown>)[key] : (f.value as unknown[])[i];
    const isString = typeof x === 'string';
    if (isString && !ANY_CONTROL.test(x)) continue;
    if (!isString && !isParsed(x)) continue;
    const at = f.at ? `${f.at}.${key}` : String(key);
    const s = f.schema && (f.keys ? propertySchema(f.schema, f.keys[i]!) : itemSchema(f.schema, i));
    problem = isString ? checkString(x, at, allowsLineBreaks(s)) : enter(at, x as object, s);
  }
  return problem;
}

const isApiRoute = (url: string | undefined) => url !== undefined && API_PREFIXES.some((p) => url.startsWith(p));

/**
 * Refuses, with a 400 'validation_failed' naming the field, every call of the API whose path
 * parameters, query or body (JSON or msgpack alike, nested values and object keys included) hold a
 * control character, DEL or a lone surrogate, before the route's schema and any service run:
 * PostgreSQL stores no NUL in text or jsonb, and no name, email or id needs one. Free text marked
 * with MULTILINE_KEYWORD may hold tabs and line breaks. The web app's pages are not calls.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (!isApiRoute(req.routeOptions.url)) return;
    const schema = req.routeOptions.schema;
    const problem =
      findControlCharacter('params', req.params, schema?.params) ??
      findControlCharacter('querystring', req.query, schema?.querystring) ??
      findControlCharacter('body', req.body, schema?.body);
    if (problem) throw new AppError('validation_failed', problem);
  });
}
