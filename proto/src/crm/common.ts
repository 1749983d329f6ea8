import { Type, type TSchema } from '@sinclair/typebox';
import { NAME_MAX } from '../rules/limits.js';

// Small building blocks shared by the crm contracts.

export const CrmUuid = Type.String({ format: 'uuid' });
export const CrmDateTime = Type.String({ format: 'date-time' });
/** A calendar date, YYYY-MM-DD (due dates, billing dates). */
export const CrmDate = Type.String({ format: 'date' });

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export function literals<T extends string>(values: readonly T[]) {
  return Type.Union(values.map((v) => Type.Literal(v)));
}

/** Paging of every crm list: page is 1-based; total counts every row that matches the filters. */
export const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: 200, default: 25 }),
};
export const PageInfo = {
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  page_size: Type.Integer({ minimum: 1 }),
};

/** Free-text search box: case-insensitive substring match. */
export const SearchText = Type.String({ maxLength: NAME_MAX });

export const IdParamsSchema = Type.Object({ id: CrmUuid });
