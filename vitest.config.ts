import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests wait for conditions, never for fixed times; these bounds only stop a hung test.
    // Tests that start engram processes take several times longer on a loaded machine.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    // Each file opens its own databases; keep runs independent of order.
    sequence: { shuffle: false },
  },
});
