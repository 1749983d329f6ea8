import { Type } from '@sinclair/typebox';

/**
 * media.generate_script: the script row is written first; the job carries only its id. (A pattern,
 * not `format: 'uuid'`: the job queue checks payloads with TypeBox's Value, which knows no formats.)
 */
export const GenerateScriptJobSchema = Type.Object(
  { scriptId: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }) },
  { additionalProperties: false },
);
