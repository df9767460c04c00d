import type { Hono } from 'hono';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { inspectRoutes } from './inspect.js';
import { kbRoutes } from './kb.js';
import { memoryRoutes } from './memory.js';
import { memoryTagRoutes } from './memory-tags.js';
import { objectRoutes } from './objects.js';
import { taskRoutes } from './tasks.js';
import { v1Routes } from './v1.js';
import { v1KnowledgeRoutes } from './v1-knowledge.js';
import { v1MemoryRoutes } from './v1-memory.js';

/** Mounts every REST route on the app. */
export function registerRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  memoryRoutes(app, engram);
  memoryTagRoutes(app, engram);
  objectRoutes(app, engram);
  taskRoutes(app, engram);
  inspectRoutes(app, engram);
  v1Routes(app, engram);
  v1MemoryRoutes(app, engram);
  v1KnowledgeRoutes(app, engram);
  kbRoutes(app, engram);
}
