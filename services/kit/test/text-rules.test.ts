import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { MULTI_LINE_PATTERN, SafeText, SINGLE_LINE_PATTERN, withTextRules } from '@countinghouse/proto';

const ajv = new Ajv({ strict: false });
const check = (schema: object, value: unknown) => ajv.compile(schema)(value);

// proto's text rule as the kit's validators (Ajv 8, unicode patterns) apply it to every request schema.
describe('the text rule', () => {
  const schema = withTextRules(
    Type.Object({
      name: Type.String({ maxLength: 50 }),
      code: Type.String({ pattern: '^[A-Z]+$' }),
      notes: SafeText(),
      kind: Type.Union([Type.Literal('a\u0000'), Type.Literal('b')]),
      tags: Type.Array(Type.String()),
      maybe: Type.Union([Type.String(), Type.Null()]),
      nested: Type.Object({ deep: Type.String() }),
    }),
  );
  const ok = { name: 'Ann', code: 'AB', notes: 'line 1\r\n\tline 2', kind: 'b', tags: ['x'], maybe: null, nested: { deep: 'y' } };

  it('accepts ordinary text, and tab and new lines in a multi-line field', () => {
    expect(check(schema, ok)).toBe(true);
    expect(check(schema, { ...ok, name: 'Zoë Ó Súilleabháin — £1,234.56 שלום' })).toBe(true);
  });

  it.each([
    ['name', 'a\u0000b'],
    ['name', 'a\nb'],
    ['name', '\u001b[31m'],
    ['name', 'a\u0085b'],
    ['name', 'a\u007fb'],
    ['code', 'A\u0000'],
    ['notes', 'a\u0000'],
    ['notes', 'a\u000bb'],
    ['maybe', 'x\u0000'],
  ])('refuses a control character in %s (%j)', (field, value) => {
    expect(check(schema, { ...ok, [field]: value })).toBe(false);
  });

  it('reaches arrays and nested objects, and leaves constants alone', () => {
    expect(check(schema, { ...ok, tags: ['x', 'y\u0000'] })).toBe(false);
    expect(check(schema, { ...ok, nested: { deep: '\u0000' } })).toBe(false);
    expect(check(schema, { ...ok, kind: 'a\u0000' })).toBe(true);
  });

  it('does not change the schema it is given', () => {
    const s = Type.Object({ a: Type.String() });
    withTextRules(s);
    expect(s.properties.a).not.toHaveProperty('pattern');
  });

  it('has patterns that compile as unicode regular expressions', () => {
    expect(new RegExp(SINGLE_LINE_PATTERN, 'u').test('a\tb')).toBe(false);
    expect(new RegExp(MULTI_LINE_PATTERN, 'u').test('a\tb')).toBe(true);
  });
});
