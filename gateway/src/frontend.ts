import fastifyStatic from '@fastify/static';
import { replyMethodNotAllowed, sendError, type App } from '@countinghouse/kit';
import { MESSAGES } from '@countinghouse/proto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serve the built frontend: hashed assets cached for a year, index.html never cached, and the SPA
 * fallback for any GET that is not an API path. Unknown API paths keep the JSON 404.
 */
export async function serveFrontend(app: App, distDir: string) {
  const indexPath = join(distDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (frontend/vite.config.ts): sent when accepted.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${join(distDir, 'assets')}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  let indexHtml: string | null = null;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // a known path asked with another method: 405 with Allow (DELETE /api/crm/stats)
    if (replyMethodNotAllowed(request, reply)) return reply;
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendError(reply, 404, 'NOT_FOUND', MESSAGES.notFound);
    if (path.startsWith('/api/') || path.startsWith('/health/') || path.startsWith('/assets/'))
      return sendError(reply, 404, 'NOT_FOUND', MESSAGES.notFound);
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The frontend is not built. Run `npm run build` (npm start does this for you).');
    }
    indexHtml ??= readFileSync(indexPath, 'utf8');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}
