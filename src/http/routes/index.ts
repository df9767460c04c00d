import type { Hono } from 'hono';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';

/** Mounts every REST route on the app. */
export function registerRoutes(_app: Hono<HttpEnv>, _engram: Engram): void {}
