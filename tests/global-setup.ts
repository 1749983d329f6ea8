const g = globalThis as { __countinghouseTemplate?: Promise<void> };

/**
 * Several projects name this set-up; the template is built once per run. What it needs is imported only
 * then: vitest loads a project's global set-up in that project's own module graph, so a static import
 * was loaded again for each of the four projects that name it, about 5 s each before the run's first file
 * (docs/perf/tests.md, session 22).
 */
export default async function setup() {
  g.__countinghouseTemplate ??= (async () => {
    const [{ prepareTemplate }, { SERVICE_MIGRATIONS }] = await Promise.all([
      import('@countinghouse/kit/testing'),
      import('./services.js'),
    ]);
    await prepareTemplate(SERVICE_MIGRATIONS);
  })();
  await g.__countinghouseTemplate;
}
