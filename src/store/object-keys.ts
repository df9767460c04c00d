import { createHash } from 'node:crypto';

/**
 * Where an object of a tenant is kept, as path segments: a directory per tenant (a hash
 * of its id, so any tenant id is a safe name) and the object's key below it.
 */
export function tenantPath(tenantId: string, key: string): string[] {
  const tenantDir = createHash('sha256').update(tenantId).digest('hex').slice(0, 32);
  return [tenantDir, ...key.split('/')];
}
