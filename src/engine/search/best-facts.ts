/**
 * The facts a search answer carries. Each returned episode is scored with every one of its
 * facts, but a REST client reads the answer as given, episode by episode: with all of them,
 * the first episode's facts that barely match the query fill a reader's context before the
 * next episode's best fact is reached. So an answer keeps, across its episodes, the `n`
 * best facts (n = the request's top_k) and each episode's own best fact; each episode's
 * facts stay best first. Every fact of an episode: POST /api/v2/memory/get.
 */
export interface ScoredFacts<F extends { score: number }> {
  atomic_facts: F[];
}

/**
 * The episodes with only their facts among the `n` best of the answer (ties: the earlier
 * episode, then the earlier fact), plus each episode's first (best) fact. Episodes keep
 * their order; facts keep theirs.
 */
export function bestFacts<F extends { score: number }, E extends ScoredFacts<F>>(
  episodes: readonly E[],
  n: number,
): E[] {
  const ranked = episodes
    .flatMap((e, i) => e.atomic_facts.map((f, j) => ({ score: f.score, i, j })))
    .sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j);
  const kept = new Set(ranked.slice(0, Math.max(0, n)).map(({ i, j }) => `${i}:${j}`));
  return episodes.map((e, i) => ({
    ...e,
    atomic_facts: e.atomic_facts.filter((_, j) => j === 0 || kept.has(`${i}:${j}`)),
  }));
}
