/**
 * Resource URIs touched by committed changes, gathered per tenant while the event loop
 * runs the current turn and handed over once after it (setImmediate): a processing job
 * commits an episode and a profile and emits a change for each, one after the other, and
 * their notifications are then written by one statement instead of one per change.
 */
export class ChangeBatch {
  private readonly pending = new Map<string, Set<string>>();
  private scheduled = false;

  constructor(private readonly flush: (tenantId: string, uris: string[]) => void) {}

  add(tenantId: string, uris: readonly string[]): void {
    if (!uris.length) return;
    const set = this.pending.get(tenantId) ?? new Set<string>();
    this.pending.set(tenantId, set);
    for (const u of uris) set.add(u);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = [...this.pending];
      this.pending.clear();
      for (const [tenant, set] of batch) this.flush(tenant, [...set]);
    });
  }
}
