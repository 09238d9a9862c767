import type { FastifyBaseLogger } from 'fastify';
import { createIndexModels } from './adapters/models';
import { fetchMissingModels, missingModelFiles } from './adapters/models/fetchModels';
import type { IndexModels } from './modules/ports';

/**
 * Loads the indexer's models from MODELS_DIR. A missing model is reported by name (logged, and
 * recorded on each media as a feature it was indexed without); nothing falls back silently.
 */
export async function loadIndexModels(
  modelsDir: string,
  log: FastifyBaseLogger,
  modelsUrl: string | null = null,
): Promise<IndexModels & { capabilities: string[]; close(): Promise<void> }> {
  if (modelsUrl && missingModelFiles(modelsDir).some((f) => !f.optional)) await fetchModels(modelsDir, modelsUrl, log);
  return createIndexModels(modelsDir, log);
}

/** First start on a new machine: fetch what MODELS_DIR lacks, logging progress per file in quarters. */
async function fetchModels(modelsDir: string, baseUrl: string, log: FastifyBaseLogger) {
  log.info({ modelsDir, from: baseUrl, files: missingModelFiles(modelsDir).map((f) => f.path) }, 'fetching model files');
  const shown = new Map<string, number>();
  const { fetched, failed } = await fetchMissingModels(modelsDir, {
    baseUrl,
    onProgress: ({ file, received, total }) => {
      const quarter = total ? Math.floor((received / total) * 4) : 0;
      if (quarter > (shown.get(file) ?? -1)) {
        shown.set(file, quarter);
        log.info({ file, percent: quarter * 25, received, total }, 'fetching model file');
      }
    },
  });
  if (fetched.length) log.info({ fetched }, 'model files fetched and verified');
  for (const f of failed) log.warn({ file: f.path, reason: f.reason }, `model file ${f.path} could not be fetched: ${f.reason}`);
}
