import { AppError, type Principal } from '@countinghouse/kit';
import { ENGAGEMENT_MESSAGES, MESSAGES, PACKAGES, type Templates, type TemplateSet } from '@countinghouse/proto';
import { addTemplates, countOnOlderTemplates, currentTemplates } from '../db/queries.js';
import { templateProblems } from '../domain/letter.js';
import type { EngagementDeps } from './deps.js';

export async function getTemplates(deps: EngagementDeps): Promise<Templates> {
  const row = await currentTemplates(deps.db);
  if (!row) throw new Error('engagement: no templates');
  return {
    version: row.version,
    templates: row.templates,
    updated_at: row.createdAt.toISOString(),
    updated_by_name: row.createdByName,
    clients_on_older_version: await countOnOlderTemplates(deps.db, row.version),
  };
}

/**
 * Save the templates as a new version (earlier versions are kept: each letter names the version it
 * was made from). Letters already sent are not touched; the practice chooses whether to send the new
 * terms (sendNewTerms). `version` is the one the editor started from: a stale edit is refused.
 */
export async function saveTemplates(deps: EngagementDeps, principal: Principal, version: number, t: TemplateSet) {
  const problems = templateProblems(
    t,
    PACKAGES.map((p) => p.name),
  );
  if (problems.length) throw new AppError('VALIDATION_FAILED', MESSAGES.validationFailed, problems);
  const current = await currentTemplates(deps.db);
  if (!current || current.version !== version)
    throw new AppError('CONFLICT', 'Someone else changed the templates meanwhile: reload them and make your change again.');
  const added = await addTemplates(deps.db, version, t, { id: principal.id, name: principal.name || principal.id });
  if (!added) throw new AppError('CONFLICT', 'Someone else changed the templates meanwhile: reload them and make your change again.');
  return { templates: await getTemplates(deps), message: ENGAGEMENT_MESSAGES.templatesSaved };
}
