import { Type } from '@sinclair/typebox';

export const DocumentUploadedSchema = Type.Object({
  documentId: Type.String(),
  clientId: Type.String(),
  filename: Type.String(),
  documentType: Type.String(),
  fileSize: Type.Integer(),
  uploadedBy: Type.String(),
});

export const DOCUMENTS_EVENTS = {
  'documents.document_uploaded': DocumentUploadedSchema,
} as const;
