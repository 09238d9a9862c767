import { SEARCH_CONFIDENCE } from '../../../contract';

/**
 * Image and moment queries on the one scale of every search (issue 37, item 12). Their raw measure
 * is the cosine similarity of MobileNetV2's pooled features, which is never near 0: the features
 * come out of a ReLU, so any two photos share some of each. Measured here: the demo library's six
 * shots against each other (a dog by a bicycle, horses, an eagle, a giraffe, people with a dog and
 * a horse, people flying kites on a beach; nothing alike) 0.50-0.72, people on a street against
 * horses in a field the highest; darknet's dog photo against itself mirrored and cropped 0.90
 * (models/README.md). So 0.65 is where likeness starts to mean something, and the scale rises three
 * times as fast as the similarity: 0.75 is medium confidence (0.30), 0.85 high (0.60), 0.98 nearly 1.
 */
export const SIMILARITY_UNRELATED = 0.65;
const SLOPE = 3;

/** A cosine similarity of image embeddings as a score from 0 to 1 (SEARCH_CONFIDENCE's scale). */
export const similarityScore = (sim: number) => Math.min(1, Math.max(0, (sim - SIMILARITY_UNRELATED) * SLOPE));

/** The least similarity whose score is `score` (what the index is asked for). */
export const similarityFor = (score: number) => SIMILARITY_UNRELATED + score / SLOPE;

/** Find similar returns only moments meaningfully like the query: medium confidence or more. */
export const SIMILAR_MIN_SIM = similarityFor(SEARCH_CONFIDENCE.medium);
