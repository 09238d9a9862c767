import fs from 'node:fs';
import path from 'node:path';
import { describeMissingFeature } from '../../../contract';
import type { IndexModels } from '../../modules/ports';
import { ClipTextEncoder, clipMissing, NoTextEncoder } from './clip';
import { COLOUR_NAMES } from './colours';
import { verifyModelFiles, type CorruptModelFile } from './fetchModels';
import { readImagenetLabels } from './mobilenet';
import { PocketsphinxSpeech, type PocketsphinxOptions } from './pocketsphinx';
import { QUERY_ANALYZER, QueryThread } from './queryThread';
import { type SpeechToText, type TextEncoder, type VisualAnalyzer, type VisualChain } from './types';
import { corruptReason, createVisualAnalyzer, reason, type VisualFeature } from './visual';
import { backgroundIsIdle } from '../process/tools';
import { VisualThread } from './visualThread';
import { WordNet } from './wordnet';
import { WordNetLexicon } from './wordnetLexicon';

export * from './types';
export { cosine } from './image';
export { createVisualAnalyzer, VISUAL_FEATURES, type VisualAnalyzerOptions, type VisualFeature } from './visual';

/**
 * Ingest's picture models on their own thread at a lower priority (visualThread.ts), and a
 * MobileNet session on a thread of its own for search's query images (queryThread.ts: the same
 * model and decoding as the index, without holding this thread or waiting behind an ingest batch).
 * Should a thread not start, its models run here as before.
 */
async function openVisual(modelsDir: string, corrupt: readonly CorruptModelFile[], log?: ModelLog) {
  const skip: VisualFeature[] = ['faces'];
  // The two threads start together: each spends a second or more loading its code and sessions.
  const [opened, queryOpened] = await Promise.allSettled([
    VisualThread.open({ modelsDir, threads: 1, corrupt, skip, idle: backgroundIsIdle() }),
    QueryThread.open({ modelsDir, corrupt }),
  ]);
  if (opened.status === 'rejected') {
    if (queryOpened.status === 'fulfilled') await queryOpened.value.close();
    log?.warn({ err: reason(opened.reason) }, 'the visual models thread did not start: they run on the main thread');
    return createVisualAnalyzer(modelsDir, { threads: 1, corrupt, skip });
  }
  const thread = opened.value;
  let query: Pick<VisualAnalyzer, 'embed' | 'close'>;
  if (queryOpened.status === 'fulfilled') query = queryOpened.value;
  else {
    log?.warn({ err: reason(queryOpened.reason) }, 'the query photo thread did not start: search by photo runs on the main thread');
    query = await createVisualAnalyzer(modelsDir, { ...QUERY_ANALYZER, threads: 1, corrupt });
  }
  return {
    capabilities: thread.capabilities,
    missing: thread.missing,
    analyze: (images: Buffer[]) => thread.analyze(images),
    analyzeChained: (images: Buffer[], chain: VisualChain) => thread.analyzeChained(images, chain),
    embed: (image: Buffer) => query.embed(image),
    close: async () => void (await Promise.all([thread.close(), query.close()])),
  };
}

/** CLIP's text tower when `modelsDir` holds the pair and tokenizer; otherwise an encoder whose `available` is false and `reason` names the files. */
export async function createTextEncoder(modelsDir: string): Promise<TextEncoder & { reason?: string }> {
  const why = clipMissing(modelsDir);
  if (why) return new NoTextEncoder(why);
  return ClipTextEncoder.open(modelsDir);
}

/** The default speech engine (Debian's pocketsphinx); throws ModelMissingError naming the packages when absent. */
export function createSpeechToText(opts: PocketsphinxOptions = {}): SpeechToText {
  return new PocketsphinxSpeech(opts);
}

/** WordNet with ImageNet's classes registered (from `imagenet1k_labels.tsv` when present). */
export function createWordNet(modelsDir: string): WordNet {
  const wn = new WordNet();
  if (fs.existsSync(path.join(modelsDir, 'imagenet1k_labels.tsv'))) wn.registerImagenet(readImagenetLabels(modelsDir));
  const coco = path.join(modelsDir, 'coco80_labels.txt');
  if (fs.existsSync(coco))
    wn.registerDetectorLabels(
      fs
        .readFileSync(coco, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
  return wn;
}

/** Anything with pino's (obj, msg) calls; the server passes its logger. */
export interface ModelLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Everything ingest and search need from the models, opened from `modelsDir`. What could not be
 * opened is listed by name in `missing` (and logged), never replaced by something else.
 */
export async function createIndexModels(
  modelsDir: string,
  log?: ModelLog,
): Promise<IndexModels & { capabilities: string[]; close(): Promise<void> }> {
  const missing: string[] = [];
  const corrupt = await verifyModelFiles(modelsDir);
  for (const c of corrupt)
    log?.warn({ file: c.path, modelsDir }, `model file ${c.path} is corrupt (${c.reason}): ${c.features.join(', ')} off`);
  // One thread per session: ingest runs speech beside the picture models, and on 2 cores ONNX
  // Runtime's own thread pool only spins against it (measured 38 vs 50 ms a keyframe, idle machine).
  // Faces are not run: nothing stores or searches a face count yet, and UltraFace cost 8-13 ms of
  // CPU a keyframe (tests/bench/ingest.bench.ts).
  // The visual threads start while this thread loads WordNet (below, ~1 s).
  const visualOpening = openVisual(modelsDir, corrupt, log);
  let wn: WordNet | null = null;
  let lexicon: WordNetLexicon | null = null;
  let wordnetMissing: string | null = null;
  try {
    wn = createWordNet(modelsDir);
    // every part of speech and the tagged counts, for transcript search's expansion: read by the
    // first query expanded (~0.9 s, once), not at every start; only their presence is checked here
    lexicon = new WordNetLexicon();
    lexicon.check();
    wn.expandLabel('dog'); // loads the files now, so a missing one shows at boot rather than mid-ingest
    wn.conceptTargets('dog'); // and the label vocabulary and sense counts queries are mapped with
  } catch (err) {
    wordnetMissing = `labels: ${reason(err)}`;
    wn = null;
    lexicon = null;
  }
  const visual = await visualOpening;
  missing.push(...visual.missing);
  const useVisual = visual.capabilities.includes('objects') || visual.capabilities.includes('classes');
  if (!useVisual) await visual.close();

  let speech: SpeechToText | null = null;
  try {
    speech = createSpeechToText();
  } catch (err) {
    missing.push(`speech: ${reason(err)}`);
  }

  const clipCorrupt = corruptReason(corrupt, ['clip']);
  const encoder = clipCorrupt ? new NoTextEncoder(`clip: ${clipCorrupt}`) : await createTextEncoder(modelsDir);
  if (!encoder.available && encoder.reason && !missing.includes(encoder.reason)) missing.push(encoder.reason);

  if (wordnetMissing) missing.push(wordnetMissing);

  const capabilities = [
    ...(useVisual ? visual.capabilities : []),
    ...(speech ? ['speech'] : []),
    ...(encoder.available ? ['clip-text'] : []),
    ...(wn ? ['wordnet'] : []),
  ];
  // An add-on that is not installed (CLIP) is normal; anything else missing is worth a warning.
  const faults = missing.filter((m) => !describeMissingFeature(m).optional);
  if (faults.length) log?.warn({ modelsDir, missing: faults }, 'some indexer models are missing: those features are not computed');
  if (faults.length < missing.length) log?.info({ missing: missing.filter((m) => !faults.includes(m)) }, 'optional models not installed');
  log?.info({ modelsDir, capabilities }, 'indexer models loaded');
  return {
    visual: useVisual ? visual : null,
    speech,
    textEncoder: encoder.available ? encoder : null,
    expandLabel: (label) => (wn ? wn.expandLabel(label) : [label.toLowerCase()]),
    normaliseQueryTerm: (word) => (wn ? wn.normaliseQueryTerm(word) : [word.toLowerCase()]),
    nounLemma: (phrase) => (wn ? wn.nounLemma(phrase) : null),
    isAdjective: (word) => (wn ? wn.isAdjective(word) : false),
    conceptTargets: (lemma) => (wn ? wn.conceptTargets(lemma) : [{ label: lemma.toLowerCase(), weight: 1, relation: 'same' as const }]),
    relatedWords: lexicon,
    colourNames: COLOUR_NAMES,
    missing,
    capabilities,
    async close() {
      await Promise.all([useVisual ? visual.close() : undefined, encoder.close()]);
    },
  };
}
