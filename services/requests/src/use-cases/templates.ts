import { AppError } from '@countinghouse/kit';
import type { RequestTemplate, TemplateBody } from '@countinghouse/proto';
import { deleteTemplate, insertTemplate, listTemplates, updateTemplate, type TemplateRow } from '../db/queries.js';
import type { RequestsDeps } from './deps.js';

export const toTemplate = (t: TemplateRow): RequestTemplate => ({
  id: t.id,
  name: t.name,
  items: t.items,
  schedule: t.schedule,
  deadline_kind: t.deadlineKind,
  lead_days: t.leadDays,
  updated_at: t.updatedAt.toISOString(),
});

function check(body: TemplateBody): TemplateBody {
  if ((body.deadline_kind === null) !== (body.lead_days === null)) {
    throw new AppError('VALIDATION_FAILED', 'A deadline kind and a lead time go together');
  }
  return { ...body, schedule: { ...body.schedule, before_days: [...new Set(body.schedule.before_days)].sort((a, b) => b - a) } };
}

export async function getTemplates(deps: RequestsDeps) {
  return { templates: (await listTemplates(deps.db)).map(toTemplate) };
}
export async function addTemplate(deps: RequestsDeps, body: TemplateBody) {
  return toTemplate(await insertTemplate(deps.db, check(body)));
}
export async function changeTemplate(deps: RequestsDeps, id: string, body: TemplateBody) {
  const row = await updateTemplate(deps.db, id, check(body));
  if (!row) throw new AppError('NOT_FOUND', 'Template not found');
  return toTemplate(row);
}
export async function removeTemplate(deps: RequestsDeps, id: string) {
  if (!(await deleteTemplate(deps.db, id))) throw new AppError('NOT_FOUND', 'Template not found');
  return { ok: true, message: 'Template deleted' };
}
