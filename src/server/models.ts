import type { FastifyBaseLogger } from 'fastify';
import { createIndexModels } from './adapters/models';
import type { IndexModels } from './services/ports';

/**
 * Loads the indexer's models from MODELS_DIR. A missing model is reported by name (logged, and
 * recorded on each media as a feature it was indexed without); nothing falls back silently.
 */
export async function loadIndexModels(modelsDir: string, log: FastifyBaseLogger): Promise<IndexModels & { close(): Promise<void> }> {
  return createIndexModels(modelsDir, log);
}
