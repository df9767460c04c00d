import { EngramError } from '../../core/errors.js';

/**
 * An embedder failed. `retryable` tells whether trying again later may succeed (the service
 * was down, rate limited or slow); misconfiguration (wrong dimensions, bad key, missing model
 * files) is not retryable. Maps to 503 through EngramError's code.
 */
export class EmbeddingError extends EngramError {
  constructor(
    message: string,
    readonly retryable: boolean,
    options: { cause?: unknown } = {},
  ) {
    super('ServiceUnavailable', message, options);
    this.name = 'EmbeddingError';
  }
}
