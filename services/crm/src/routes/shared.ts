import { Type } from '@sinclair/typebox';

export const ErrorRef = Type.Ref('ErrorBody');
export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef };
