/** Polls cond until it holds; fails naming `what` after timeoutMs (generous: loaded CI). */
export async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
