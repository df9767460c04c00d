import { SearchInput } from '../../contract/search.js';
import type { Logger } from '../../core/log.js';
import type { SearchService } from './service.js';

/**
 * One search of each kind an agent's first `recall` runs (hybrid, for a user with the
 * profile, and for an agent), on a tenant that cannot exist (tenant ids are never empty):
 * it finds nothing, but loads the embedder and fills the database's catalog, plan and
 * text-search caches, so the first real search pays none of it. Failures are only logged.
 */
const WARM_TENANT = '';

export async function warmUpSearch(search: Pick<SearchService, 'search'>, log: Logger): Promise<number> {
  const started = performance.now();
  try {
    for (const owner of [{ user_id: 'warm-up', include_profile: true }, { agent_id: 'warm-up' }])
      await search.search(
        { tenantId: WARM_TENANT },
        SearchInput.parse({ query: 'warm up the search', ...owner }),
      );
  } catch (err) {
    log.warn('search warm-up failed', { err });
  }
  return performance.now() - started;
}
