// What this server can index, as users see it: `GET /health` lists it, the Processing modal and
// the media modal show the features that are off and why.

/** Index features, keyed as the server's models report them (`objects: …not in MODELS_DIR`). */
export const INDEX_FEATURES = {
  media: { label: 'Video indexing', optional: false },
  objects: { label: 'Finding objects (people, vehicles, animals)', optional: false },
  classes: { label: 'Recognising scenes and things', optional: false },
  embedding: { label: 'Search by example image and similar moments', optional: false },
  colours: { label: 'Search by colour', optional: false },
  text: { label: 'Reading on-screen text', optional: false },
  faces: { label: 'Counting faces', optional: false },
  speech: { label: 'Transcript search (speech to text)', optional: false },
  labels: { label: 'Related words (WordNet)', optional: false },
  clip: { label: 'Free-text picture matching (CLIP)', optional: true },
} as const;

export type IndexFeature = keyof typeof INDEX_FEATURES;

/** One feature this server (or one media's index) does without, in plain words. */
export interface FeatureOff {
  feature: IndexFeature | string;
  label: string;
  reason: string;
  /** An add-on that is off unless installed (CLIP): not a fault. */
  optional: boolean;
}

/** `GET /health`: the server is up, and what its indexer can compute. */
export interface HealthInfo {
  ok: true;
  /** Feature names computed: objects, classes, embedding, colours, text, faces, clip, speech, wordnet… */
  capabilities: string[];
  off: FeatureOff[];
  /** The support-chat widget of this deployment, or null when none is configured (no widget, no promise of one). */
  supportChat: SupportChatConfig | null;
}

/** Where the support-chat widget (Intercom's messenger or a compatible stand-in) is loaded from, and its app id. */
export interface SupportChatConfig {
  appId: string;
  scriptUrl: string;
}

/**
 * A `missing` entry of the models or of a media's index ('speech: … not in the system (apt-get
 * install pocketsphinx …)', 'objects: yolox_nano.onnx not in MODELS_DIR', 'objects: yolox_nano.onnx
 * is corrupt (…)') as a feature, its label and a reason a person can act on.
 */
export function describeMissingFeature(entry: string): FeatureOff {
  const colon = entry.indexOf(': ');
  const feature = colon > 0 ? entry.slice(0, colon) : entry;
  let reason = colon > 0 ? entry.slice(colon + 2) : 'not available';
  const known = (INDEX_FEATURES as Record<string, { label: string; optional: boolean } | undefined>)[feature];
  // "speech (pocketsphinx): pocketsphinx_continuous not in the system (apt-get install …)"
  const tool = /^(?:[\w-]+ \(([\w .-]+)\): )?([\w./, -]+?) not in the system(?: \((.+)\))?$/.exec(reason);
  const files = /^(.+?) not in (MODELS_DIR|node_modules)/.exec(reason);
  if (tool) {
    const packages = /^apt-get install (.+)$/.exec(tool[3] ?? '')?.[1].split(' ');
    const what = packages ? packages.join(' and ') : (tool[1] ?? tool[2]);
    reason = `${what} ${packages && packages.length > 1 ? 'are' : 'is'} not installed on this server`;
  } else if (files) {
    const list = files[1].split(', ');
    reason = `model file${list.length > 1 ? 's' : ''} ${list.join(', ')} ${list.length > 1 ? 'are' : 'is'} not installed on this server`;
  }
  return { feature, label: known?.label ?? feature, reason, optional: known?.optional ?? false };
}
