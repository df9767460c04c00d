import { describe, expect, it } from 'vitest';
import type { CaseForSkill } from '../../src/core/ports.js';
import { OfflineExtractor } from '../../src/providers/offline/index.js';
import { splitSteps } from '../../src/providers/offline/skill.js';

const ex = new OfflineExtractor();

const cases: CaseForSkill[] = [
  {
    id: 'c1',
    task_intent: 'Check the weather forecast in Chamonix for Saturday',
    approach: [
      '1. Called geocode(query: Chamonix) -> 45.92, 6.87.',
      '2. Called get_weather(lat: 45.92, lon: 6.87, date: 2024-03-23) -> Sunny, 4°C.',
      '3. Answered using the results: Saturday looks sunny.',
    ].join('\n'),
    quality_score: 0.8,
    key_insight: 'Geocoding the city first avoids "city not found" errors.',
  },
  {
    id: 'c2',
    task_intent: 'What is the weather forecast for Oslo tomorrow?',
    approach: [
      '1. Called get_weather(city: Oslo, date: 2024-04-02) -> failed: {"error":"city not found"}.',
      '2. Called geocode(query: Oslo) -> 59.91, 10.75.',
      '3. Called get_weather(lat: 59.91, lon: 10.75, date: 2024-04-02) -> Rain, 7°C.',
      '4. Answered using the results: expect rain.',
    ].join('\n'),
    quality_score: 0.7,
    key_insight: 'get_weather failed at first; retrying it with different arguments (lat, lon) worked.',
  },
  {
    id: 'c3',
    task_intent: 'Weather forecast in Lima this weekend',
    approach:
      'Used `geocode` to find Lima, then called get_weather(lat: -12.05, lon: -77.04) and summarised it.',
    quality_score: 0.6,
    key_insight: null,
  },
];

describe('offline extractor: distillSkill', () => {
  it('names the skill from the words the task intents share', async () => {
    const skill = await ex.distillSkill(cases);
    expect(skill.name).toBe('Weather forecast');
    expect(skill.description).toContain('Distilled from 3 cases');
    expect(skill.description).toContain('geocode');
  });

  it('merges the approaches into one numbered procedure with insights', async () => {
    const { content } = await ex.distillSkill(cases);
    const steps = content.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(steps[0]).toBe('1. Call `geocode` with query.');
    expect(steps[1]).toMatch(/^2\. Call `get_weather` with lat, lon, date, city \(failed in 1 of \d uses/);
    expect(steps[2]).toBe('3. Answer using the results.');
    expect(content).toContain('Key insights:');
    expect(content).toContain('- Geocoding the city first avoids "city not found" errors.');
    expect(content.startsWith('When to use: Check the weather forecast in Chamonix for Saturday')).toBe(true);
  });

  it('grows confidence with the number of cases and their quality', async () => {
    const one = await ex.distillSkill(cases.slice(0, 1));
    const three = await ex.distillSkill(cases);
    const poor = await ex.distillSkill(cases.map((c) => ({ ...c, quality_score: 0.3 })));
    expect(one.confidence).toBeGreaterThan(0);
    expect(three.confidence).toBeGreaterThan(one.confidence);
    expect(poor.confidence).toBeLessThan(three.confidence);
    for (const s of [one, three, poor]) {
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('ignores cases under 0.2 quality when better ones exist', async () => {
    const bad: CaseForSkill = {
      id: 'c0',
      task_intent: 'Weather forecast for Rome',
      approach: '1. Called scrape_website(url: weather.example) -> failed: timeout.',
      quality_score: 0.1,
      key_insight: 'scrape_website timed out.',
    };
    const skill = await ex.distillSkill([...cases, bad]);
    expect(skill.content).not.toContain('scrape_website');
    expect(skill.description).toContain('Distilled from 3 cases');
  });

  it('handles an empty list and free-text approaches', async () => {
    const empty = await ex.distillSkill([]);
    expect(empty.confidence).toBe(0);
    expect(empty.name.length).toBeGreaterThan(0);
    expect(splitSteps('Searched the docs, then asked the user to confirm; then replied.')).toEqual([
      'Searched the docs',
      'asked the user to confirm',
      'replied.',
    ]);
  });

  it('is deterministic', async () => {
    expect(await ex.distillSkill(cases)).toEqual(await ex.distillSkill([...cases]));
  });
});
