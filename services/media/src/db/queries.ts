import type { Db } from '@countinghouse/kit';
import type { RequestedBy, ScriptRecord, ScriptSummary, VideoScript, VideoType } from '@countinghouse/proto';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { generatedScripts, type GeneratedScriptRow } from './schema.js';

type Tx = Pick<Db, 'update' | 'select' | 'insert' | 'execute'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function requestedBy(row: GeneratedScriptRow): RequestedBy {
  return { kind: row.requestedByKind, id: row.requestedById, name: row.requestedByName };
}

export function toRecord(row: GeneratedScriptRow): ScriptRecord {
  return {
    id: row.id,
    type: row.type,
    prompt: row.prompt,
    status: row.status,
    progress: row.progress,
    script: row.script ?? null,
    text: row.text,
    generator: row.generator ?? null,
    model: row.model,
    error: row.error,
    attempts: row.attempts,
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    duration_ms: row.startedAt && row.completedAt ? Math.max(0, row.completedAt.getTime() - row.startedAt.getTime()) : null,
    requested_by: requestedBy(row),
    created_at: row.createdAt.toISOString(),
  };
}

export function toSummary(row: GeneratedScriptRow): ScriptSummary {
  return {
    id: row.id,
    type: row.type,
    prompt: row.prompt,
    status: row.status,
    title: row.script?.title ?? null,
    total_seconds: row.script?.total_seconds ?? null,
    generator: row.generator ?? null,
    error: row.error,
    requested_by: requestedBy(row),
    created_at: row.createdAt.toISOString(),
  };
}

export async function insertScript(db: Db, o: { type: VideoType; prompt: string | null; requestedBy: RequestedBy }) {
  const [row] = await db
    .insert(generatedScripts)
    .values({
      type: o.type,
      prompt: o.prompt,
      requestedByKind: o.requestedBy.kind,
      requestedById: o.requestedBy.id,
      requestedByName: o.requestedBy.name,
    })
    .returning();
  return row!;
}

export async function findScriptById(db: Pick<Db, 'select'>, id: string): Promise<GeneratedScriptRow | undefined> {
  return (await db.select().from(generatedScripts).where(eq(generatedScripts.id, id)))[0];
}

export async function listScripts(db: Db, o: { page: number; pageSize: number }) {
  const rows = await db
    .select()
    .from(generatedScripts)
    .orderBy(desc(generatedScripts.createdAt), desc(generatedScripts.id))
    .limit(o.pageSize)
    .offset((o.page - 1) * o.pageSize);
  const [total] = await db.select({ n: count() }).from(generatedScripts);
  return { rows, total: total?.n ?? 0 };
}

/** Claim a queued (or interrupted) script for a run. Undefined when it is already finished. */
export async function markRunning(db: Db, id: string, progress: number) {
  const [row] = await db
    .update(generatedScripts)
    .set({
      status: 'running',
      progress,
      attempts: sql`${generatedScripts.attempts} + 1`,
      startedAt: sql`coalesce(${generatedScripts.startedAt}, now())`,
      error: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(generatedScripts.id, id), inArray(generatedScripts.status, ['queued', 'running'])))
    .returning();
  return row;
}

export async function setProgress(db: Db, id: string, progress: number) {
  await db
    .update(generatedScripts)
    .set({ progress, updatedAt: sql`now()` })
    .where(and(eq(generatedScripts.id, id), eq(generatedScripts.status, 'running')));
}

export async function markCompleted(
  tx: Tx,
  id: string,
  o: { script: VideoScript; text: string; generator: 'openai' | 'template'; model: string | null },
) {
  const [row] = await tx
    .update(generatedScripts)
    .set({
      status: 'completed',
      progress: 100,
      script: o.script,
      text: o.text,
      generator: o.generator,
      model: o.model,
      error: null,
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(generatedScripts.id, id))
    .returning();
  return row!;
}

export async function markFailed(tx: Tx, id: string, o: { error: string; generator: 'openai' | 'template'; model: string | null }) {
  const [row] = await tx
    .update(generatedScripts)
    .set({ status: 'failed', error: o.error, generator: o.generator, model: o.model, completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(generatedScripts.id, id))
    .returning();
  return row!;
}

/** Scripts left queued or running (a restart forgets in-process jobs): oldest first. */
export async function unfinishedScriptIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: generatedScripts.id })
    .from(generatedScripts)
    .where(inArray(generatedScripts.status, ['queued', 'running']))
    .orderBy(generatedScripts.createdAt)
    .limit(500);
  return rows.map((r) => r.id);
}
