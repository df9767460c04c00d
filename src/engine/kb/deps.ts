import type { Db } from '../../core/db.js';
import type { Logger } from '../../core/log.js';
import type { Embedder, Llm, ObjectStore, Reranker } from '../../core/ports.js';
import type { MemoryEvents } from '../events.js';
import type { TaskQueue } from '../jobs/queue.js';
import type { VectorIndex } from '../vector-index.js';

/** What the knowledge-base engine needs, wired in the composition root. */
export interface KbDeps {
  db: Db;
  queue: TaskQueue;
  embedder: Embedder;
  llm?: Llm | undefined;
  reranker?: Reranker | undefined;
  log: Logger;
  /** Where committed topic changes are announced (MCP resource subscriptions). */
  events: MemoryEvents;
  /** The vector index shared with memory search. */
  vectorIndex: () => Promise<VectorIndex>;
  /** Where the knowledge wiki keeps a document's file and its Markdown. */
  objects: ObjectStore;
  /**
   * An uploaded object named as a document's source (`content.uri`): its bytes and file
   * name; throws InvalidParameter (at `param`) when the key names no uploaded object.
   */
  objectFile: (tenantId: string, key: string, param: string) => Promise<{ bytes: Buffer; fileName: string }>;
}
