import { EventEmitter } from 'node:events';

/**
 * In-process notifications that a memory set or knowledge-base topics changed (for MCP
 * resource subscriptions).
 * Emitted after the change has committed. With several processes each one sees only the
 * changes it made itself.
 */
export interface MemoryChange {
  tenantId: string;
  appId: string;
  projectId: string;
  kind: 'episode' | 'profile' | 'agent_case' | 'agent_skill' | 'message';
  /** user_id for episodes and profiles, agent_id for cases and skills, sender for messages. */
  ownerIds: string[];
  ids: string[];
  action: 'created' | 'updated' | 'deleted';
}

/**
 * A committed change to knowledge-base topics: with `topicId`, one topic's tags; with
 * `docId` alone, a document's whole topic tree (rebuilt or removed); with neither, the
 * whole knowledge base (removed).
 */
export interface KbChange {
  tenantId: string;
  kbId: string;
  docId?: string;
  topicId?: string;
}

export class MemoryEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(change: MemoryChange): void {
    this.emitter.emit('change', change);
  }

  on(listener: (change: MemoryChange) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  emitKb(change: KbChange): void {
    this.emitter.emit('kb', change);
  }

  onKb(listener: (change: KbChange) => void): () => void {
    this.emitter.on('kb', listener);
    return () => this.emitter.off('kb', listener);
  }
}
