import { Type, type StringOptions, type TSchema, type TString } from '@sinclair/typebox';

/**
 * The one rule for text arriving at the edge (issue #21): no NUL and no other control character
 * (C0, DEL, C1) in any string of a request body, query string or path parameter; multi-line fields
 * (notes, descriptions, message bodies) may also hold tab, line feed and carriage return.
 *
 * Every service's validator applies it (`withTextRules`, called by the kit's createApp for each route's
 * body, querystring and params schema), so a string schema needs nothing to get it: a NUL or an escape
 * character is a 400 with `EDGE_MESSAGES.controlCharacters`, never a 500 from PostgreSQL. A multi-line
 * field says so with `SafeText()`; `SafeString()` spells the single-line rule out where a schema wants
 * it visible (the OpenAPI document shows the pattern).
 */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
export const MULTI_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$';
const TEXT_PATTERNS = new Set([SINGLE_LINE_PATTERN, MULTI_LINE_PATTERN]);

export const EDGE_MESSAGES = {
  controlCharacters: 'must not contain control characters (such as NUL)',
  badRequestTarget: 'The address of this request is not valid.',
  malformedMultipart: 'The upload could not be read: the form data is incomplete or malformed. Please try again.',
  multipartNotAllowedHere: 'This address does not take form uploads.',
  gatewayOnly: 'This service answers only requests that come through the gateway.',
  methodNotAllowed: 'This address does not take that method.',
  shuttingDown: 'The server is restarting. Please try again in a moment.',
} as const;

/** A single-line text field (names, e-mail subjects, search words). */
export function SafeString(opts: StringOptions = {}): TString {
  return Type.String({ ...opts, pattern: SINGLE_LINE_PATTERN });
}

/** A multi-line text field (notes, descriptions, bodies): tab, CR and LF allowed, other controls not. */
export function SafeText(opts: StringOptions = {}): TString {
  return Type.String({ ...opts, pattern: MULTI_LINE_PATTERN });
}

/** True when a validation error is this rule's (so the answer can say so in words). */
export function isTextRulePattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && TEXT_PATTERNS.has(pattern);
}

/** True when the text keeps the single-line rule. */
export function isSafeLine(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f-\u009f]/.test(s);
}

/** True when the text keeps the multi-line rule. */
export function isSafeText(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(s);
}

type Node = Record<string | symbol, unknown>;

/** A schema object (not an array, not a value such as an enum's). */
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function isStringNode(n: Node): boolean {
  const t = n.type;
  return t === 'string' || (Array.isArray(t) && t.includes('string'));
}

/**
 * A copy of a request schema in which every string without the rule gets it: a string with no pattern
 * gets the single-line pattern; one with a pattern of its own keeps it and gets the single-line pattern
 * as well (through allOf). Constants and enumerations are left alone (their values are ours).
 */
export function withTextRules<T extends TSchema | Record<string, unknown>>(schema: T): T {
  // walk returns a copy of the schema with patterns added to its strings, so of T's shape; being
  // generic over any JSON schema, it cannot say so in its own type.
  return walk(schema) as T;
}

const NESTED_ONE = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'additionalItems'] as const;
const NESTED_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const NESTED_MAP = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

function walk(node: unknown): unknown {
  if (!isNode(node)) return node;
  const out: Node = { ...node };
  for (const k of NESTED_ONE) {
    const v = node[k];
    if (Array.isArray(v)) out[k] = v.map((x) => walk(x));
    else if (v && typeof v === 'object') out[k] = walk(v);
  }
  for (const k of NESTED_LIST) {
    const v = node[k];
    if (Array.isArray(v)) out[k] = v.map((x) => walk(x));
  }
  for (const k of NESTED_MAP) {
    const v = node[k];
    if (v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, walk(s)]));
  }
  if (isStringNode(node) && node.const === undefined && node.enum === undefined) {
    const own = node.pattern;
    if (own === undefined) out.pattern = SINGLE_LINE_PATTERN;
    else if (!isTextRulePattern(own)) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { pattern: SINGLE_LINE_PATTERN }];
  }
  return out;
}

/** The highest page number a list accepts: far past any real list, far below what a database offset overflows at. */
export const MAX_PAGE = 100_000;

/** A list's page number in a query string: 1 to MAX_PAGE (so page=2^63 is a 400, not a 500). */
export function PageNumber() {
  return Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 });
}

// C0, DEL and C1 controls, the bidirectional marks, embeddings, overrides and isolates (U+061C,
// U+200E/F, U+202A-U+202E, U+2066-U+2069): a name holding U+202E shows `invoice‮fdp.exe` as
// `invoiceexe.pdf`.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A name (e.g. an uploaded file's) fit to show and to put in a header: controls and bidi overrides removed. */
export function cleanDisplayName(name: string): string {
  return name.replace(UNSAFE_IN_NAMES, '');
}
