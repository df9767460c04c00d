import type {
  AgentCaseItem,
  AgentSkillItem,
  EpisodeItem,
  ProfileData,
  ProfileItem,
} from '../../contract/records.js';
import type { Row } from '../../core/db.js';
import { iso, isoRequired } from '../../core/time.js';
import { profileSources } from './profile.js';

/** Database rows to the records the contract returns. */
export interface EpisodeRow extends Row {
  id: string;
  app_id: string;
  project_id: string;
  session_id: string | null;
  owner_ids: string[];
  sender_ids: string[];
  ts: string | number;
  subject: string;
  summary: string;
  episode: string;
  type: string;
  source_message_ids: string[];
  edited_at: Date | string | null;
  tags: string[] | null;
  reflect_state: 'pending' | 'done' | null;
}

export interface FactRow extends Row {
  id: string;
  episode_id: string;
  content: string;
  source_message_ids: string[];
}

const msIso = (ms: string | number) => isoRequired(Number(ms));

export function episodeItem(r: EpisodeRow, facts: FactRow[], viewer?: string, readable = false): EpisodeItem {
  const item: EpisodeItem = {
    id: r.id,
    app_id: r.app_id,
    project_id: r.project_id,
    user_id: viewer ?? (r.owner_ids.length === 1 ? r.owner_ids[0]! : null),
    session_id: r.session_id,
    timestamp: msIso(r.ts),
    sender_ids: r.sender_ids,
    summary: r.summary,
    subject: r.subject,
    episode: r.episode,
    readable_episode: readable ? readableEpisode(r) : null,
    type: r.type,
    atomic_facts: facts.map((f) => ({
      id: f.id,
      content: f.content,
      source_message_ids: f.source_message_ids,
    })),
    tags: r.tags ?? [],
    source_message_ids: r.source_message_ids,
  };
  if (r.edited_at) {
    item.edited_at = iso(r.edited_at);
    item.reflect_state = r.reflect_state;
  }
  return item;
}

/** Display rendering: subject as a heading, then the narrative. */
function readableEpisode(r: EpisodeRow): string {
  const when = msIso(r.ts).slice(0, 10);
  return `${r.subject} (${when})\n\n${r.episode}`;
}

export interface ProfileRow extends Row {
  id: string;
  app_id: string;
  project_id: string;
  user_id: string;
  profile_data: ProfileData;
  created_at: Date | string;
  updated_at: Date | string;
}

export const profileItem = (r: ProfileRow): ProfileItem => ({
  id: r.id,
  app_id: r.app_id,
  project_id: r.project_id,
  user_id: r.user_id,
  profile_data: r.profile_data,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
  source_message_ids: profileSources(r.profile_data),
});

export interface CaseRow extends Row {
  id: string;
  app_id: string;
  project_id: string;
  agent_id: string;
  session_id: string;
  ts: string | number;
  task_intent: string;
  approach: string;
  quality_score: number;
  key_insight: string | null;
  source_message_ids: string[];
}

export const caseItem = (r: CaseRow): AgentCaseItem => ({
  id: r.id,
  app_id: r.app_id,
  project_id: r.project_id,
  agent_id: r.agent_id,
  session_id: r.session_id,
  task_intent: r.task_intent,
  approach: r.approach,
  quality_score: Number(r.quality_score),
  key_insight: r.key_insight,
  timestamp: msIso(r.ts),
  source_message_ids: r.source_message_ids,
});

export interface SkillRow extends Row {
  id: string;
  app_id: string;
  project_id: string;
  agent_id: string;
  name: string;
  description: string;
  content: string;
  confidence: number;
  maturity_score: number;
  source_case_ids: string[];
  source_message_ids: string[];
  created_at: Date | string;
  updated_at: Date | string;
}

export const skillItem = (r: SkillRow): AgentSkillItem => ({
  id: r.id,
  app_id: r.app_id,
  project_id: r.project_id,
  agent_id: r.agent_id,
  name: r.name,
  description: r.description,
  content: r.content,
  confidence: Number(r.confidence),
  maturity_score: Number(r.maturity_score),
  source_case_ids: r.source_case_ids,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
  source_message_ids: r.source_message_ids,
});

/** Columns selected for each kind (never the embedding or tsvector). */
export const EPISODE_COLUMNS =
  'id, app_id, project_id, session_id, owner_ids, sender_ids, ts, subject, summary, episode, type, source_message_ids, edited_at, reflect_state, tags';
export const CASE_COLUMNS =
  'id, app_id, project_id, agent_id, session_id, ts, task_intent, approach, quality_score, key_insight, source_message_ids';
export const SKILL_COLUMNS =
  'id, app_id, project_id, agent_id, name, description, content, confidence, maturity_score, source_case_ids, source_message_ids, created_at, updated_at';
export const PROFILE_COLUMNS = 'id, app_id, project_id, user_id, profile_data, created_at, updated_at';
