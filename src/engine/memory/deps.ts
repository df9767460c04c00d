import type { Db } from '../../core/db.js';
import type { Logger } from '../../core/log.js';
import type { Embedder, Extractor } from '../../core/ports.js';
import type { MemoryEvents } from '../events.js';
import type { TaskQueue } from '../jobs/queue.js';
import type { BoundaryRules } from './boundary.js';

/** What the memory engine is built from; the composition root provides it. */
export interface MemoryDeps {
  db: Db;
  queue: TaskQueue;
  extractor: Extractor;
  embedder: Embedder;
  events: MemoryEvents;
  log: Logger;
  rules: BoundaryRules;
  /** How long a synchronous add or flush waits for its work before answering. */
  syncWaitMs: number;
  /**
   * The text an uploaded object (a content item's `uri`) gives its message; throws
   * InvalidParameter (reported at `param`) when the key names no uploaded object.
   */
  objectText?: (tenantId: string, key: string, param: string) => Promise<string>;
}

/** Who is asking: every operation is confined to the tenant. */
export interface Ctx {
  tenantId: string;
  keyId?: string;
}

export interface Scope {
  appId: string;
  projectId: string;
}

/**
 * app_ids of partitions the v2 contract cannot name (a LIKE pattern): the legacy v1 store
 * keeps its memories there. Operations addressed by memory id alone skip them.
 */
export const RESERVED_APP_IDS = 'v1:%';

/** Jobs of one session run one at a time, in order. */
export const sessionChain = (s: Scope, sessionId: string) =>
  JSON.stringify(['session', s.appId, s.projectId, sessionId]);
export const agentChain = (s: Scope, agentId: string) =>
  JSON.stringify(['agent', s.appId, s.projectId, agentId]);
