/**
 * Skill distillation: merges similar cases of one agent into one reusable procedure.
 * Approaches are split into steps; steps calling the same tool (or saying the same
 * thing) are merged across cases and ordered by where they usually happen; key insights
 * become notes. The name comes from the words the task intents share; confidence grows
 * with the number of cases and their mean quality.
 */
import type { CaseForSkill, ExtractedSkill } from '../../core/ports.js';
import { capitalize, contentStems, isContentWord, stem, tokenize, truncate } from './text.js';

/** Cases under this quality never shape a skill when better ones exist. */
export const MIN_SKILL_QUALITY = 0.2;
const MAX_STEPS = 12;

interface ParsedStep {
  key: string;
  tool: string | null;
  args: string[];
  text: string;
  failed: boolean;
}

const TOOL_CALL =
  /\b(?:called|call|calls|calling|used|use|uses|using|ran|run|invoked|invoke|queried|query)\s+(?:the\s+)?`?([A-Za-z_][\w.-]*)`?(?:\s+tool)?\s*(?:\(([^)]*)\))?/i;

/** Splits an approach into step texts: numbered lines, else sentences and "then" clauses. */
export function splitSteps(approach: string): string[] {
  let parts = approach.split(/\n+/).filter((l) => l.trim());
  if (parts.length <= 1) {
    parts = approach.split(/(?<=[.;])\s+(?=[A-Z0-9])/).flatMap((p) => p.split(/[,;]?\s+then\s+/i));
  }
  return parts
    .map((l) =>
      l
        .replace(/^\s*(?:\d+[.)]|[-*\u2022])\s*/, '')
        .replace(/^then\s+/i, '')
        .replace(/[;,]\s*$/, '')
        .trim(),
    )
    .filter((l) => l.length > 2);
}

function parseStep(text: string): ParsedStep {
  const failed = /\bfail(?:ed|s|ure)?\b|\berror\b/i.test(text);
  const m = TOOL_CALL.exec(text);
  const tool = m?.[1] && (/[_.]/.test(m[1]) || m[2] !== undefined || /`/.test(m[0])) ? m[1] : null;
  if (tool) {
    const args = [...(m?.[2] ?? '').matchAll(/([A-Za-z_]\w*)\s*[:=]/g)]
      .map((a) => a[1] ?? '')
      .filter(Boolean);
    return { key: `tool:${tool}`, tool, args, text, failed };
  }
  const head = text.split(/:|->|\u2192/)[0] ?? text;
  const stems = [...new Set(contentStems(head))].slice(0, 4).sort();
  return {
    key: `text:${stems.join(' ') || head.toLowerCase()}`,
    tool: null,
    args: [],
    text: head.trim(),
    failed,
  };
}

interface Merged {
  key: string;
  tool: string | null;
  args: Set<string>;
  cases: Set<number>;
  posSum: number;
  uses: number;
  failures: number;
  text: string;
  bestQuality: number;
}

function mergeSteps(cases: readonly CaseForSkill[]): Merged[] {
  const merged = new Map<string, Merged>();
  cases.forEach((c, ci) => {
    const steps = splitSteps(c.approach).map(parseStep);
    steps.forEach((s, si) => {
      const m = merged.get(s.key) ?? {
        key: s.key,
        tool: s.tool,
        args: new Set<string>(),
        cases: new Set<number>(),
        posSum: 0,
        uses: 0,
        failures: 0,
        text: s.text,
        bestQuality: -1,
      };
      for (const a of s.args) m.args.add(a);
      m.cases.add(ci);
      m.posSum += steps.length > 1 ? si / (steps.length - 1) : 0;
      m.uses++;
      if (s.failed) m.failures++;
      if (c.quality_score > m.bestQuality) {
        m.bestQuality = c.quality_score;
        m.text = s.text;
      }
      merged.set(s.key, m);
    });
  });
  return [...merged.values()];
}

function renderStep(m: Merged): string {
  if (m.tool) {
    const args = m.args.size ? ` with ${[...m.args].join(', ')}` : '';
    const fail =
      m.failures > 0 ? ` (failed in ${m.failures} of ${m.uses} uses: check the arguments and retry)` : '';
    return `Call \`${m.tool}\`${args}${fail}.`;
  }
  return `${truncate(capitalize(imperative(m.text.replace(/[.;]+$/, ''))), 200)}.`;
}

/** "Answered using the results" -> "Answer using the results": procedures read as orders. */
export function imperative(step: string): string {
  const m = /^([A-Za-z]+)(ed)\b/.exec(step);
  if (!m?.[1] || m[1].length < 2 || /e$/i.test(m[1])) return step;
  let base = m[1];
  if (/ied$/i.test(`${base}ed`)) base = `${base.slice(0, -1)}y`;
  else if (/([bdgmnprt])\1$/.test(base)) base = base.slice(0, -1);
  else if (/(?:[^aeiou][sczvg]|[aeiou][sczvgu]|at)$/i.test(base) && !/(?:ss|ck)$/i.test(base)) base += 'e';
  return base + step.slice(m[0].length);
}

/** Words the task intents share most, in the order the best case uses them. */
function nameWords(cases: readonly CaseForSkill[], best: CaseForSkill): string[] {
  const df = new Map<string, { n: number; surface: string }>();
  for (const c of cases) {
    const seen = new Set<string>();
    for (const w of tokenize(c.task_intent).filter(isContentWord)) {
      const s = stem(w);
      if (seen.has(s)) continue;
      seen.add(s);
      const e = df.get(s) ?? { n: 0, surface: w };
      e.n++;
      df.set(s, e);
    }
  }
  const need = Math.max(1, Math.ceil(cases.length / 2));
  const order = tokenize(best.task_intent).filter(isContentWord).map(stem);
  const pos = (s: string): number => (order.includes(s) ? order.indexOf(s) : 1e6);
  return [...df.entries()]
    .filter(([, e]) => e.n >= need)
    .sort((a, b) => b[1].n - a[1].n || pos(a[0]) - pos(b[0]))
    .slice(0, 3)
    .sort((a, b) => pos(a[0]) - pos(b[0]))
    .map(([, e]) => e.surface);
}

/** One skill from similar cases of one agent. Empty input gives a zero-confidence skill. */
export function distillSkill(all: readonly CaseForSkill[]): ExtractedSkill {
  if (all.length === 0) {
    return { name: 'Empty skill', description: 'No cases to learn from.', content: '', confidence: 0 };
  }
  const good = all.filter((c) => c.quality_score >= MIN_SKILL_QUALITY);
  const cases = good.length > 0 ? good : [...all];
  const best = [...cases].sort(
    (a, b) => b.quality_score - a.quality_score || a.id.localeCompare(b.id),
  )[0] as CaseForSkill;
  const n = cases.length;
  const mean = cases.reduce((s, c) => s + c.quality_score, 0) / n;

  const words = nameWords(cases, best);
  const tools = [
    ...new Set(
      cases.flatMap((c) =>
        splitSteps(c.approach)
          .map(parseStep)
          .flatMap((s) => (s.tool ? [s.tool] : [])),
      ),
    ),
  ];
  const name = truncate(
    words.length
      ? capitalize(words.join(' '))
      : tools.length
        ? `Use ${tools.slice(0, 2).join(' and ')}`
        : 'General procedure',
    80,
  );

  const bestIdx = cases.indexOf(best);
  const merged = mergeSteps(cases)
    .filter((m) => m.cases.size / n >= 0.5 || m.cases.has(bestIdx))
    .sort((a, b) => a.posSum / a.uses - b.posSum / b.uses || b.cases.size - a.cases.size)
    .slice(0, MAX_STEPS);
  const insights = [
    ...new Set(
      [...cases]
        .sort((a, b) => b.quality_score - a.quality_score)
        .flatMap((c) => (c.key_insight?.trim() ? [c.key_insight.trim()] : [])),
    ),
  ].slice(0, 5);

  const lines = [`When to use: ${truncate(best.task_intent, 200)}`, '', 'Procedure:'];
  merged.forEach((m, i) => {
    lines.push(`${i + 1}. ${renderStep(m)}`);
  });
  if (insights.length) lines.push('', 'Key insights:', ...insights.map((k) => `- ${truncate(k, 300)}`));
  const description = truncate(
    `Procedure for requests like "${truncate(best.task_intent, 160)}"${tools.length ? `, using ${tools.slice(0, 4).join(', ')}` : ''}. Distilled from ${n} case${n === 1 ? '' : 's'} (mean quality ${mean.toFixed(2)}).`,
    500,
  );
  const confidence = Math.round(Math.min(1, Math.max(0, mean * (1 - 0.5 ** n))) * 100) / 100;
  return { name, description, content: lines.join('\n'), confidence };
}
