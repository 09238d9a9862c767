import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_PREFIXES, SERVER_PAGE_PREFIXES } from '../../contract';
import { AppError } from '../errors';

const isApiPath = (url: string) =>
  API_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`) || url.startsWith(`${p}?`));

/** Serves the built web app; unknown non-API GETs get index.html so client routes deep-link. */
export async function registerWebApp(app: FastifyInstance, webDir: string) {
  const index = path.join(webDir, 'index.html');
  const hasApp = fs.existsSync(index);
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // Its own Cache-Control (max-age=0 by default) would replace the one set here.
      cacheControl: false,
      setHeaders(res, file) {
        // Hashed assets never change; everything else is revalidated.
        if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
        if (file.endsWith('service-worker.js')) res.setHeader('service-worker-allowed', '/');
      },
    });
  }
  // App routes and API paths overlap (/library/:id is a page and a call): a browser navigation asks
  // for HTML, the API client for msgpack or JSON, so the Accept header decides.
  if (hasApp) {
    app.addHook('onRequest', async (req, res) => {
      const url = req.url.split('?')[0]!;
      if (req.method !== 'GET' || !(req.headers.accept ?? '').startsWith('text/html')) return;
      if (SERVER_PAGE_PREFIXES.some((p) => url.startsWith(p)) || path.extname(url)) return;
      return res.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
  app.setNotFoundHandler(async (req, res) => {
    const url = req.url.split('?')[0]!;
    if (req.method === 'GET' && !isApiPath(url) && hasApp && !path.extname(url)) {
      return res.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
    }
    throw new AppError('not_found', `No route for ${req.method} ${url}`);
  });
}
