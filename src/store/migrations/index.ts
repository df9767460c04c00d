import { sql as foundation } from './0001_foundation.js';
import { sql as memory } from './0002_memory.js';
import { sql as search } from './0003_search.js';
import { sql as enqueue } from './0004_enqueue.js';
import { sql as openMessages } from './0005_open_messages.js';
import { sql as scaleOut } from './0006_scale_out.js';
import { sql as legacyV1 } from './0007_legacy_v1.js';
import { sql as tags } from './0008_tags.js';
import { sql as objects } from './0009_objects.js';
import { sql as knowledge } from './0010_knowledge.js';
import { sql as searchCounts } from './0011_search_counts.js';
import { sql as kbFiles } from './0012_kb_files.js';
import { sql as v1SelfMigrated } from './0013_v1_self_migrated.js';
import { sql as searchPostings } from './0014_search_postings.js';
import { sql as messageSearch } from './0015_message_search.js';
import { sql as turnSpeaker } from './0016_turn_speaker.js';
import { sql as finish } from './0017_finish.js';
import { sql as postingsVacuum } from './0018_postings_vacuum.js';
import { sql as episodeEmbeddingInline } from './0019_episode_embedding_inline.js';
import { sql as liveTriggers } from './0020_live_triggers.js';
import { sql as embeddingInline } from './0021_embedding_inline.js';
import { sql as factsFollowEpisode } from './0022_facts_follow_episode.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Ordered, append-only. Never edit a migration that has shipped: add a new one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'foundation', sql: foundation },
  { version: 2, name: 'memory', sql: memory },
  { version: 3, name: 'search', sql: search },
  { version: 4, name: 'enqueue', sql: enqueue },
  { version: 5, name: 'open_messages', sql: openMessages },
  { version: 6, name: 'scale-out', sql: scaleOut },
  { version: 7, name: 'legacy_v1', sql: legacyV1 },
  { version: 8, name: 'tags', sql: tags },
  { version: 9, name: 'objects', sql: objects },
  { version: 10, name: 'knowledge', sql: knowledge },
  { version: 11, name: 'search_counts', sql: searchCounts },
  { version: 12, name: 'kb_files', sql: kbFiles },
  { version: 13, name: 'v1_self_migrated', sql: v1SelfMigrated },
  { version: 14, name: 'search_postings', sql: searchPostings },
  { version: 15, name: 'message_search', sql: messageSearch },
  { version: 16, name: 'turn_speaker', sql: turnSpeaker },
  { version: 17, name: 'finish', sql: finish },
  { version: 18, name: 'postings_vacuum', sql: postingsVacuum },
  { version: 19, name: 'episode_embedding_inline', sql: episodeEmbeddingInline },
  { version: 20, name: 'live_triggers', sql: liveTriggers },
  { version: 21, name: 'embedding_inline', sql: embeddingInline },
  { version: 22, name: 'facts_follow_episode', sql: factsFollowEpisode },
];
