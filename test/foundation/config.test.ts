import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, workerConcurrencyFor } from '../../src/config.js';

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8787);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dbIdleSeconds).toBe(0);
  });

  it('takes flags over environment', () => {
    const c = loadConfig({ ENGRAM_PORT: '9000' }, { port: '9100', 'data-dir': '/tmp/x' });
    expect(c.port).toBe(9100);
    expect(c.dataDir).toBe('/tmp/x');
  });

  it('fails fast naming the bad variable', () => {
    expect(() => loadConfig({ ENGRAM_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ ENGRAM_PORT: '70000' })).toThrow(/ENGRAM_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://engram@/engram?host=/run/pg&port=pg' })).toThrow(
      /DATABASE_URL.*port must be a number from 1 to 65535, got "pg"/s,
    );
    expect(() => loadConfig({}, { port: '-1' })).toThrow(/--port/);
    expect(() => loadConfig({ ENGRAM_DB_IDLE_SECONDS: '-1' })).toThrow(/ENGRAM_DB_IDLE_SECONDS/);
  });

  it('never prints a password or key it was given', () => {
    const fails = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('expected a configuration error');
    };
    const url = fails({ DATABASE_URL: 'postgresql://engram:s3cr%3At@db.internal:5432/engram?port=x' });
    expect(url).toMatch(
      /DATABASE_URL="postgresql:\/\/engram:\*\*\*@db\.internal:5432\/engram\?port=x": port must/,
    );
    expect(url).not.toContain('s3cr');
    const wrongScheme = fails({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(wrongScheme).toContain('mysql://root:***@db/x');
    expect(wrongScheme).not.toContain('hunter2');
    for (const pass of ['pa/ss', 'p@ss']) {
      const shown = fails({ DATABASE_URL: `postgres://engram:${pass}@db/engram?port=0` });
      expect(shown).toContain('postgres://engram:***@db/engram?port=0');
      expect(shown).not.toContain(pass);
    }
    const llm = fails({ ENGRAM_LLM_BASE_URL: 'ftp://user:pw0rd@llm.internal/v1' });
    expect(llm).toContain('ENGRAM_LLM_BASE_URL="ftp://user:***@llm.internal/v1"');
    expect(llm).not.toContain('pw0rd');
  });

  it('runs 4 background jobs at once on PostgreSQL and 2 embedded, unless told', () => {
    expect(workerConcurrencyFor(loadConfig({}), 'postgres')).toBe(4);
    expect(workerConcurrencyFor(loadConfig({}), 'pglite')).toBe(2);
    const told = loadConfig({ ENGRAM_WORKER_CONCURRENCY: '3' });
    expect([workerConcurrencyFor(told, 'postgres'), workerConcurrencyFor(told, 'pglite')]).toEqual([3, 3]);
    expect(() => loadConfig({ ENGRAM_WORKER_CONCURRENCY: '0' })).toThrow(/ENGRAM_WORKER_CONCURRENCY/);
  });

  it('falls back to OPENAI_API_KEY for the LLM key', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).llmApiKey).toBe('sk-x');
  });
});
