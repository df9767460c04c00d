import type { GetData, GetInput } from '../../contract/memory-read.js';
import type {
  AddData,
  AddInput,
  DeleteByIdsData,
  DeleteByIdsInput,
  DeleteData,
  DeleteInput,
  FeedbackInput,
  FlushData,
  FlushInput,
  UpdateData,
  UpdateInput,
} from '../../contract/memory-write.js';
import type { EditData, EditInput } from '../../contract/profile-edit.js';
import type { TagData } from '../../contract/tags.js';
import type { Sql } from '../../core/db.js';
import { EngramError, retryConflicts } from '../../core/errors.js';
import { deleteByScope, deleteEpisodesByIds } from './delete.js';
import type { Ctx, MemoryDeps, Scope } from './deps.js';
import { storeFeedback } from './feedback.js';
import { sweepIdleSessions } from './idle.js';
import { messagesInsert } from './messages.js';
import { enqueueProcess, type ProcessResult, processSession } from './process.js';
import { editProfile } from './profile-edit.js';
import { type PurgeCounts, purgeDeleted } from './purge.js';
import { getMemories } from './read.js';
import { consolidateSkills } from './skills.js';
import { changeTags, type TagChange } from './tags.js';
import { refreshEpisode, updateEpisode } from './update.js';

/**
 * The conversation-memory operations. Every acknowledged message is committed (with the
 * job that will process it) before add answers; processing then runs in this request
 * (synchronous add and flush) or in the background (async add).
 */
export class MemoryService {
  /**
   * @param idleMs buffered messages of a session that received nothing new for this long
   *   are extracted by the workers (0: only boundaries and flushes extract).
   * @param purgeAfterMs soft-deleted rows are removed for good by the workers once deleted
   *   this long (0: only `engram purge` removes them).
   */
  constructor(
    private readonly deps: MemoryDeps,
    idleMs = 0,
    purgeAfterMs = 0,
  ) {
    deps.queue.register('memory.process', (t) => processSession(deps, t));
    deps.queue.register('memory.skill', (t) => consolidateSkills(deps, t));
    deps.queue.register('memory.refresh', (t) => refreshEpisode(deps, t));
    if (idleMs > 0)
      deps.queue.every(Math.min(60_000, Math.max(250, idleMs / 4)), async () => {
        await sweepIdleSessions(deps, idleMs);
      });
    if (purgeAfterMs > 0)
      deps.queue.every(Math.min(3_600_000, Math.max(1000, purgeAfterMs / 4)), async () => {
        const n = await purgeDeleted(deps.db, purgeAfterMs);
        if (Object.values(n).some((v) => v > 0)) deps.log.info('purged deleted memory', { ...n });
      });
  }

  /**
   * @param opts.extractNow extract the session's buffer after these messages without
   *   waiting for a boundary (a self-contained note).
   * @param opts.inTx runs in the transaction that stores the messages (callers that keep
   *   their own record of them commit it together with the messages, or neither).
   */
  async add(
    ctx: Ctx,
    input: AddInput,
    opts: { extractNow?: boolean; inTx?: (tx: Sql, messageIds: string[]) => Promise<void> } = {},
  ): Promise<{ httpStatus: 200 | 202; data: AddData }> {
    const scope: Scope = { appId: input.app_id, projectId: input.project_id };
    input = { ...input, messages: await this.withObjectText(ctx, input.messages) };
    // One statement, one round trip: the messages and the job that will process them
    // commit together (nothing is acknowledged that is not durable, nor half-written).
    // A caller that keeps its own record of the messages (opts.inTx) commits it in the
    // same transaction.
    let messageIds: string[] = [];
    const enqueue = (q: Sql) =>
      enqueueProcess(
        this.deps.queue,
        q,
        ctx.tenantId,
        scope,
        input.session_id,
        {
          message_count: input.messages.length,
          async: input.async_mode,
          ...(opts.extractNow ? { flush: true } : {}),
        },
        (taskId) => {
          const insert = messagesInsert(ctx.tenantId, scope, input.session_id, input.messages, taskId);
          messageIds = insert.ids;
          return insert;
        },
      );
    const inTx = opts.inTx;
    const task = inTx
      ? await this.deps.db.transaction(async (tx) => {
          const t = await enqueue(tx);
          await inTx(tx, messageIds);
          return t;
        })
      : await enqueue(this.deps.db);
    this.deps.events.emit({
      tenantId: ctx.tenantId,
      appId: scope.appId,
      projectId: scope.projectId,
      kind: 'message',
      ownerIds: [...new Set(input.messages.map((m) => m.sender_id))],
      ids: messageIds,
      action: 'created',
    });
    const base = { message_count: input.messages.length, message_ids: messageIds };
    if (input.async_mode) {
      this.deps.queue.wake();
      return { httpStatus: 202, data: { ...base, status: 'queued', task_id: task.id } };
    }
    // The messages are committed: whatever happens to processing now, the add succeeded.
    // If extraction fails, the cut segments stay open and the session's next add or
    // flush extracts them.
    const row = await this.deps.queue.runOrWait(ctx.tenantId, task.id, this.deps.syncWaitMs);
    const result = row?.status === 'success' ? (row.result as ProcessResult) : undefined;
    return {
      httpStatus: 200,
      data: { ...base, status: result && result.segments > 0 ? 'extracted' : 'accumulated' },
    };
  }

  /** Content items naming an uploaded object (`uri`, no `text`) get the object's text. */
  private async withObjectText(ctx: Ctx, messages: AddInput['messages']): Promise<AddInput['messages']> {
    const resolve = this.deps.objectText;
    const fromObject = (c: { uri?: string | null | undefined; text?: string | null | undefined }) =>
      c.uri != null && c.text == null && !/^[a-z][a-z0-9+.-]*:/i.test(c.uri);
    if (!resolve) return messages;
    return Promise.all(
      messages.map(async (m, i) =>
        typeof m.content === 'string' || !m.content.some(fromObject)
          ? m
          : {
              ...m,
              content: await Promise.all(
                m.content.map(async (c, j) =>
                  fromObject(c)
                    ? { ...c, text: await resolve(ctx.tenantId, c.uri!, `messages[${i}].content[${j}].uri`) }
                    : c,
                ),
              ),
            },
      ),
    );
  }

  async flush(ctx: Ctx, input: FlushInput): Promise<FlushData> {
    const scope: Scope = { appId: input.app_id, projectId: input.project_id };
    const task = await this.deps.db.transaction((tx) =>
      enqueueProcess(this.deps.queue, tx, ctx.tenantId, scope, input.session_id, { flush: true }),
    );
    const row = await this.deps.queue.runOrWait(ctx.tenantId, task.id, this.deps.syncWaitMs);
    if (row?.status === 'failed')
      throw new EngramError(
        'ServiceUnavailable',
        `extraction failed (${row.error ?? 'unknown error'}); flush again later`,
        {
          retryAfter: 30,
        },
      );
    const result = row?.status === 'success' ? (row.result as ProcessResult) : undefined;
    return { status: result && result.extracted > 0 ? 'extracted' : 'no_extraction' };
  }

  get(ctx: Ctx, input: GetInput): Promise<GetData> {
    return getMemories(this.deps.db, ctx, input);
  }

  // The writes below emit their events after they commit: one that conflicted with a
  // concurrent write (a deadlock, PostgreSQL) is run again (retryConflicts).
  update(ctx: Ctx, input: UpdateInput): Promise<UpdateData> {
    return retryConflicts(() => updateEpisode(this.deps, ctx, input));
  }

  delete(ctx: Ctx, input: DeleteInput): Promise<DeleteData> {
    return retryConflicts(() => deleteByScope(this.deps, ctx, input));
  }

  /** Removes for good the rows soft-deleted at least olderThanMs ago (engram purge). */
  purge(olderThanMs = 0, tenantId?: string): Promise<PurgeCounts> {
    return retryConflicts(() => purgeDeleted(this.deps.db, olderThanMs, tenantId));
  }

  deleteByIds(ctx: Ctx, input: DeleteByIdsInput): Promise<DeleteByIdsData> {
    return retryConflicts(() => deleteEpisodesByIds(this.deps, ctx, input));
  }

  feedback(ctx: Ctx, input: FeedbackInput): Promise<{ id: string }> {
    return storeFeedback(this.deps, ctx, input);
  }

  /** tag/bind, tag/unbind, tag/replace on episodes by id. */
  tags(ctx: Ctx, change: TagChange, memoryIds: readonly string[], tags: readonly string[]): Promise<TagData> {
    return changeTags(this.deps.db, ctx, change, memoryIds, tags);
  }

  editProfile(ctx: Ctx, input: EditInput): Promise<EditData> {
    return retryConflicts(() => editProfile(this.deps, ctx, input));
  }
}
