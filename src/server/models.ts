import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { IndexModels } from './services/ports';

/**
 * Loads the indexer's models from MODELS_DIR. A missing model is reported by name, and ingest
 * records which features it could not compute; nothing falls back silently.
 */
export async function loadIndexModels(modelsDir: string, log: FastifyBaseLogger): Promise<IndexModels> {
  const missing: string[] = [];
  if (!fs.existsSync(modelsDir)) missing.push(`MODELS_DIR ${modelsDir} does not exist`);
  missing.push('visual and speech model adapters are not wired yet');
  log.warn({ missing }, 'indexer models not loaded: visual features and speech are skipped');
  return {
    visual: null,
    speech: null,
    textEncoder: null,
    expandLabel: (l) => [l.toLowerCase()],
    normaliseQueryTerm: (w) => [w.toLowerCase()],
    missing,
  };
}
