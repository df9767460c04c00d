import type { Config } from '../../config.js';
import type { Embedder } from '../../core/ports.js';
import { LocalEmbedder } from './local.js';
import { OpenAIEmbedder } from './openai.js';

export { EmbeddingError } from './errors.js';
export { LOCAL_MODEL_PACKAGE, LocalEmbedder, type LocalEmbedderOptions } from './local.js';
export { KNOWN_DIMENSIONS, OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai.js';

/**
 * An Embedder the composition root prepares once at start: `init()` loads the offline model,
 * or, for a remote model of unknown size, learns `dimensions` with one request. Safe to skip
 * (the first `embed` does the same), and idempotent.
 */
export interface ManagedEmbedder extends Embedder {
  init(): Promise<void>;
}

/**
 * The remote OpenAI-compatible embedder when ENGRAM_EMBEDDING_BASE_URL is set, else the
 * offline one. The API key is ENGRAM_EMBEDDING_API_KEY only: the LLM's key is never sent to
 * another host.
 */
export function createEmbedder(config: Config): ManagedEmbedder {
  if (config.embeddingBaseUrl) {
    return new OpenAIEmbedder({
      baseURL: config.embeddingBaseUrl,
      apiKey: config.embeddingApiKey,
      model: config.embeddingModel,
      dimensions: config.embeddingDimensions,
    });
  }
  return new LocalEmbedder();
}
