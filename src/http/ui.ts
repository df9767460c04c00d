import { readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import type { HttpEnv } from './app.js';

/**
 * The web inspector at /ui: three static files from the repository's ui/ folder (the same
 * path from src/http and dist/http). Public: the page holds no tenant data; it asks for a
 * key and calls the REST API with it. Strict CSP: only this origin's script, style and API.
 */
const UI_DIR = new URL('../../ui/', import.meta.url);
const FILES: Record<string, { file: string; type: string }> = {
  '/ui': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/ui/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/ui/inspector.js': { file: 'inspector.js', type: 'text/javascript; charset=utf-8' },
  '/ui/inspector.css': { file: 'inspector.css', type: 'text/css; charset=utf-8' },
};
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function inspectorRoutes(app: Hono<HttpEnv>): void {
  const cache = new Map<string, Promise<string>>();
  for (const [path, { file, type }] of Object.entries(FILES))
    app.get(path, async (c) => {
      let text = cache.get(file);
      if (!text) {
        text = readFile(new URL(file, UI_DIR), 'utf8');
        cache.set(file, text);
        text.catch(() => cache.delete(file));
      }
      c.header('Content-Type', type);
      c.header('Content-Security-Policy', CSP);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Referrer-Policy', 'no-referrer');
      c.header('Cache-Control', 'no-cache');
      return c.body(await text);
    });
}
