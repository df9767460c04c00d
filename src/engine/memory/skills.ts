import { newId } from '../../core/ids.js';
import type { CaseForSkill } from '../../core/ports.js';
import type { TaskRow } from '../jobs/queue.js';
import { vectorText } from '../search/vector.js';
import { contentWords, jaccard } from '../text.js';
import type { MemoryDeps, Scope } from './deps.js';
import { skillEmbeddingText } from './extract.js';

/**
 * The `memory.skill` job: consolidates an agent's similar cases into skills. A new case
 * joins the existing skill it resembles most (task intent vs skill name + description),
 * or clusters with other unassigned cases; a skill is (re)distilled from all its cases
 * whenever it gains one. Cases scoring below 0.2 never become skills; a lone case waits
 * until a similar one arrives.
 */
const MIN_QUALITY = 0.2;
const SIMILAR = 0.25;

interface CaseRow extends CaseForSkill {
  [k: string]: unknown;
  skill_id: string | null;
  source_message_ids: string[];
}

export async function consolidateSkills(deps: MemoryDeps, task: TaskRow): Promise<{ skills: string[] }> {
  const tenantId = task.tenant_id;
  const scope: Scope = { appId: task.app_id ?? 'default', projectId: task.project_id ?? 'default' };
  const agentId = String(task.payload['agent_id']);
  const params = [tenantId, scope.appId, scope.projectId, agentId];
  const cases = await deps.db.query<CaseRow>(
    `SELECT id, task_intent, approach, quality_score, key_insight, skill_id, source_message_ids FROM agent_cases
     WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND agent_id = $4 AND deleted_at IS NULL
       AND quality_score >= ${MIN_QUALITY} ORDER BY ts, id`,
    params,
  );
  const skills = await deps.db.query<{ id: string; name: string; description: string }>(
    `SELECT id, name, description FROM agent_skills
     WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND agent_id = $4 AND deleted_at IS NULL`,
    params,
  );
  const words = (c: CaseForSkill) => contentWords(c.task_intent);
  const groups = new Map<string, CaseRow[]>(); // skill id (existing or new) -> cases
  for (const c of cases.filter((c) => c.skill_id)) push(groups, c.skill_id!, c);
  const touched = new Set<string>();
  const loose: CaseRow[] = [];
  for (const c of cases.filter((c) => !c.skill_id)) {
    let best: { id: string; sim: number } | undefined;
    for (const s of skills) {
      const sim = jaccard(words(c), contentWords(`${s.name} ${s.description}`));
      if (sim >= SIMILAR && (!best || sim > best.sim)) best = { id: s.id, sim };
    }
    if (best) {
      push(groups, best.id, c);
      touched.add(best.id);
    } else loose.push(c);
  }
  // Greedy clustering of the unassigned cases.
  const clusters: CaseRow[][] = [];
  for (const c of loose) {
    const home = clusters.find((cl) => cl.some((o) => jaccard(words(o), words(c)) >= SIMILAR));
    if (home) home.push(c);
    else clusters.push([c]);
  }
  const creates = new Set<string>();
  for (const cl of clusters.filter((cl) => cl.length >= 2)) {
    const id = newId();
    groups.set(id, cl);
    touched.add(id);
    creates.add(id);
  }
  const written: string[] = [];
  for (const skillId of touched) {
    const members = groups.get(skillId)!;
    const skill = await deps.extractor.distillSkill(members);
    const [vec] = await deps.embedder.embed([skillEmbeddingText(skill)]);
    const caseIds = members.map((m) => m.id);
    const sources = [...new Set(members.flatMap((m) => m.source_message_ids))];
    await deps.db.transaction(async (tx) => {
      const values = [
        tenantId,
        skillId,
        skill.name,
        skill.description,
        skill.content,
        skill.confidence,
        JSON.stringify(caseIds),
        JSON.stringify(sources),
        vectorText(vec!),
      ];
      if (creates.has(skillId))
        await tx.query(
          `INSERT INTO agent_skills (tenant_id, id, name, description, content, confidence, source_case_ids,
                                     source_message_ids, embedding, app_id, project_id, agent_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::vector, $10, $11, $12)`,
          [...values, scope.appId, scope.projectId, agentId],
        );
      else
        await tx.query(
          `UPDATE agent_skills SET name = $3, description = $4, content = $5, confidence = $6, source_case_ids = $7::jsonb,
                  source_message_ids = $8::jsonb, embedding = $9::vector, updated_at = now()
           WHERE tenant_id = $1 AND id = $2`,
          values,
        );
      await tx.query(
        `UPDATE agent_cases SET skill_id = $2, updated_at = now()
         WHERE tenant_id = $1 AND id IN (SELECT jsonb_array_elements_text($3::jsonb))`,
        [tenantId, skillId, JSON.stringify(caseIds)],
      );
    });
    written.push(skillId);
    deps.events.emit({
      tenantId,
      appId: scope.appId,
      projectId: scope.projectId,
      kind: 'agent_skill',
      ownerIds: [agentId],
      ids: [skillId],
      action: creates.has(skillId) ? 'created' : 'updated',
    });
  }
  return { skills: written };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k) ?? [];
  list.push(v);
  m.set(k, list);
}
