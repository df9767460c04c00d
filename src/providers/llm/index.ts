import type { Config } from '../../config.js';
import type { Logger } from '../../core/log.js';
import type { Llm } from '../../core/ports.js';
import { OpenAiLlm } from './openai-llm.js';

/** The OpenAI-compatible LLM adapter and the LLM-backed extractor. */
export { extractJson, JsonExtractionError } from './json.js';
export { LlmExtractor, type LlmExtractorOptions, mapExtraction, plainNarrative } from './llm-extractor.js';
export { jsonSchemaOf, OpenAiLlm, type OpenAiLlmOptions } from './openai-llm.js';

/** The configured LLM, or undefined when ENGRAM_LLM_BASE_URL is unset (offline mode). */
export function createLlm(config: Config, logger?: Logger): Llm | undefined {
  if (!config.llmBaseUrl) return undefined;
  return new OpenAiLlm({
    baseURL: config.llmBaseUrl,
    apiKey: config.llmApiKey,
    model: config.llmModel,
    timeoutMs: config.llmTimeoutMs,
    maxRetries: config.llmMaxRetries,
    ...(logger ? { logger } : {}),
  });
}
