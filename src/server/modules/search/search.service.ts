import {
  confidenceOf,
  matchReason,
  momentId,
  MSG_SEARCH,
  parseMomentId,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_IMAGE_MAX_BYTES,
  type Media,
  type Moment,
  type MultiSearchResults,
  type SearchRequest,
  type SearchResults,
  type SearchResultType,
} from '../../../contract';
import { LRUCache } from 'lru-cache';
import { AppError, badRequest } from '../../errors';
import type { MediaRepository } from '../libraries/media.repository';
import { shotKey, type FrameRow, type SearchRepository, type ShotTimes } from './search.repository';
import type { Session } from '../accounts/account.service';
import type { Access } from '../libraries/access';
import { toMedia } from '../libraries/mediaView';
import type { IndexModels } from '../ports';
import { queryScore, type ResolvedConcept } from './conceptScore';
import { parseQuery } from './queryConcepts';
import { SIMILAR_MIN_SIM, SIMILARITY_UNRELATED, similarityScore } from './similarityScore';
import { expandQuery, isNegated, STRONG_WEIGHT, type QueryExpansion } from './queryExpansion';
import { transcriptMatch, wordsMatching } from './transcriptScore';
import { wordsOf } from './visualTerms';

/**
 * Shots read from the shot index per looked-up word when a query has several concepts (a shot fair
 * on each can beat one best on one), and how many of the best are scored keyframe by keyframe.
 */
const SHOT_CANDIDATES = 400;
const SHOTS_SCORED = 150;
/** Index words looked up per concept (its own words first, then its best labels'). */
const TERMS_PER_CONCEPT = 10;
/** Labels a concept keeps (best first): enough for 'bird' or 'dog' and their ImageNet kinds. */
const TARGETS_PER_CONCEPT = 400;
const IMAGE_CANDIDATES = 200;
/** A concept whose best label is further than this is optional: the index cannot really see it. */
const MIN_REQUIRED_WEIGHT = 0.5;
/** Transcript segments read (any query word, best by Postgres's cover density) and rescored by BM25. */
const TRANSCRIPT_CANDIDATES = 400;

type ResolvedQuery = ReadonlyArray<{ concept: ResolvedConcept; lookups: Array<{ term: string; weight: number }> }>;

interface Scored {
  /** What a moment is made of. */
  frame: Pick<FrameRow, 'id' | 'media_id' | 'library_id' | 't' | 'shot_idx'>;
  score: number;
}

export interface SearchDeps {
  search: SearchRepository;
  access: Access;
  media: MediaRepository;
  models: IndexModels;
}

/** Finds moments by what is seen (text, image, moment), what is said, or both fused. */
export class SearchService {
  constructor(private readonly d: SearchDeps) {}

  /**
   * The query as concepts mapped onto the index (emoji names are the client's job): each with the
   * labels it stands for and the index words that find candidate shots, best first.
   */
  resolveQuery(text: string): ResolvedQuery {
    const known = this.resolved.get(text);
    if (known) return known;
    const resolved = this.resolveAfresh(text);
    this.resolved.set(text, resolved);
    return resolved;
  }

  /**
   * Queries as concepts, by text: WordNet walks cost milliseconds of this thread per query, and the
   * same words come back (pages of one search, the same words typed by many). Read-only once made.
   */
  private readonly resolved = new LRUCache<string, ResolvedQuery>({ max: 1000 });

  private resolveAfresh(text: string): ResolvedQuery {
    const m = this.d.models;
    return parseQuery(text, { nounLemma: (p) => m.nounLemma(p), isAdjective: (w) => m.isAdjective(w) }, m.colourNames).map((q) => {
      const literals = [...new Set([q.text, q.lemma ?? q.text, q.text.replace(/[\s-]+/g, '')])];
      const targets = new Map<string, number>();
      const direct = new Set<string>();
      const general = new Set<string>();
      if (!q.isColour && q.lemma)
        for (const t of m.conceptTargets(q.lemma).slice(0, TARGETS_PER_CONCEPT)) {
          targets.set(t.label, t.weight);
          if (t.relation === 'same' || t.relation === 'hyponym') direct.add(t.label);
          if (t.relation === 'hypernym') general.add(t.label);
        }
      const lookups = new Map<string, number>();
      const offer = (term: string | undefined, weight: number) => {
        if (term && weight > (lookups.get(term) ?? 0) && (lookups.has(term) || lookups.size < TERMS_PER_CONCEPT)) lookups.set(term, weight);
      };
      // the concept's own words (the shot index has every label's hypernyms: 'vehicle' finds buses), then its labels' most distinctive words
      const longest = (label: string) => wordsOf(label).sort((a, b) => b.length - a.length)[0];
      if (q.isColour) offer(wordsOf(q.text).at(-1), 1);
      else for (const l of literals) offer(longest(l), 1);
      for (const [label, weight] of targets) offer(longest(label), weight);
      return {
        concept: {
          text: q.text,
          targets,
          direct,
          general,
          literals,
          colours: q.colours,
          count: q.count,
          isColour: q.isColour,
          // what no label stands for closely cannot be required of a frame (it still counts when found)
          optional: !q.isColour && ![...targets.values()].some((w) => w >= MIN_REQUIRED_WEIGHT),
        },
        lookups: [...lookups].map(([term, weight]) => ({ term, weight })),
      };
    });
  }

  /** Scored keyframes for a text, and the times of the shots it read whole (what `toMoments` needs of them). */
  private async visualByText(
    libraryIds: string[],
    text: string,
    mediaIds?: string[],
  ): Promise<{ scored: Scored[]; known: Map<string, ShotTimes> }> {
    const known = new Map<string, ShotTimes>();
    const query = this.resolveQuery(text);
    if (!query.length) return { scored: [], known };
    const concepts = query.map((q) => q.concept);
    // Candidate shots from the shot index: a shot's score for a concept is its best looked-up word
    // (times that word's weight), averaged over the concepts; the best shots are scored exactly.
    const lookups = query.flatMap((q, concept) => q.lookups.map((l) => ({ ...l, concept })));
    const frames = await this.d.search.framesOfBestShots(libraryIds, lookups, query.length, {
      // One concept: a shot's score is its best word's, so the best shots overall are among each
      // word's own best SHOTS_SCORED (up to ties at the edge); reading more changes nothing.
      perTerm: query.length === 1 ? SHOTS_SCORED : SHOT_CANDIDATES,
      shots: SHOTS_SCORED,
      mediaIds,
    });
    const scored = new Map<string, Scored>();
    for (const f of frames) {
      const key = shotKey(f.media_id, f.shot_idx);
      (known.get(key) ?? known.set(key, { times: [], end: f.shot_end }).get(key)!).times.push(f.t);
      const s = queryScore(f, concepts);
      if (s > 0) scored.set(f.id, { frame: f, score: s });
    }
    // CLIP, when installed, adds text-to-image similarity (useful for things no label names).
    const encoder = this.d.models.textEncoder;
    const v = encoder ? await encoder.embed(text) : null;
    if (v) {
      for (const f of await this.d.search.nearestClip(libraryIds, v, 300, mediaIds)) {
        const bonus = Math.max(0, (f.sim ?? 0) - 0.2) * 3;
        if (bonus <= 0) continue;
        const cur = scored.get(f.id);
        scored.set(f.id, { frame: cur?.frame ?? f, score: Math.min(1, (cur?.score ?? 0) + bonus) });
      }
    }
    return { scored: [...scored.values()], known };
  }

  /** Keyframes like an embedding, and the times of their shots (what `toMoments` needs of them). */
  private async visualByEmbedding(
    libraryIds: string[],
    v: Float32Array,
    mediaIds?: string[],
    exclude?: { mediaId: string; start: number; end: number },
  ): Promise<{ scored: Scored[]; known: Map<string, ShotTimes> }> {
    // Kept: what is close to the best match and like the query at all (similarityScore.ts); far-off
    // frames are noise, not moments. A moment query (find similar) keeps only what is meaningfully
    // like it, medium confidence or more; a photo's low matches stay for the client's toggle.
    const minSim = exclude ? SIMILAR_MIN_SIM : SIMILARITY_UNRELATED;
    const frames = await this.d.search.nearestEmbedding(libraryIds, v, IMAGE_CANDIDATES, { minSim, ofBest: 0.8, mediaIds, exclude });
    const known = new Map(frames.map((f) => [shotKey(f.media_id, f.shot_idx), { times: f.shot_times, end: f.shot_end }]));
    return { scored: frames.map((f) => ({ frame: f, score: similarityScore(f.sim) })), known };
  }

  private async imageEmbedding(dataUrl: string): Promise<Float32Array> {
    // Only the prefix is matched: a regular expression over a photo's 2 MB of base64 cost 3 ms a
    // search. Other characters are skipped by the decoder; what is not an image then fails to decode.
    // The size is known from the base64's length (what decoding yields at most), so it is checked first.
    const m = /^data:image\/(png|jpe?g|webp|gif|bmp|avif);base64,/i.exec(dataUrl.slice(0, 40));
    const base64 = m ? dataUrl.slice(m[0].length) : '';
    if (Buffer.byteLength(base64, 'base64') > SEARCH_IMAGE_MAX_BYTES) throw badRequest('The image is larger than 15 MB.');
    const bytes = Buffer.from(base64, 'base64');
    if (!bytes.length) throw badRequest('image must be a data:image/... URL (PNG, JPEG, WebP, GIF, BMP or AVIF; SVG is not supported)');
    if (!this.d.models.visual) throw new AppError('not_configured', `Image search is unavailable: ${this.d.models.missing.join('; ')}`);
    const embedding = await this.d.models.visual.embed(bytes);
    if (!embedding.length) throw badRequest('The image could not be read.');
    return embedding;
  }

  /**
   * Adjacent matching keyframes of one shot become one moment, from the first to where the next
   * keyframe (or the shot) begins; a moment never spans a cut. The times of shots not in `known`
   * are read.
   */
  private async toMoments(scored: Scored[], known?: Map<string, ShotTimes>): Promise<Moment[]> {
    const byShot = new Map<string, Scored[]>();
    for (const s of scored) {
      const key = shotKey(s.frame.media_id, s.frame.shot_idx);
      (byShot.get(key) ?? byShot.set(key, []).get(key)!).push(s);
    }
    const shotKeys = [...byShot.values()].map((l) => ({ mediaId: l[0]!.frame.media_id, shotIdx: l[0]!.frame.shot_idx }));
    const unknown = shotKeys.filter((k) => !known?.has(shotKey(k.mediaId, k.shotIdx)));
    const times = new Map([...(known ?? []), ...(unknown.length ? await this.d.search.shotTimes(unknown) : [])]);
    // A media's duration ends a moment only where its shot has no recorded end (not read otherwise).
    const endless = [...new Set(shotKeys.filter((k) => times.get(shotKey(k.mediaId, k.shotIdx))?.end == null).map((k) => k.mediaId))];
    const durations = new Map(endless.length ? (await this.d.media.manyById(endless)).map((m) => [m.id, m.duration ?? 0]) : []);
    const out: Moment[] = [];
    for (const [key, list] of byShot) {
      const mediaId = list[0]!.frame.media_id;
      const shot = times.get(key) ?? { times: list.map((s) => s.frame.t).sort((a, b) => a - b), end: null };
      const index = new Map(shot.times.map((t, i) => [t, i]));
      list.sort((a, b) => a.frame.t - b.frame.t);
      let run: Scored[] = [];
      const flush = () => {
        if (!run.length) return;
        const first = run[0]!;
        const last = run[run.length - 1]!;
        const next = shot.times[(index.get(last.frame.t) ?? shot.times.length) + 1];
        const end = next ?? shot.end ?? Math.max(durations.get(mediaId) ?? 0, last.frame.t + 0.1);
        out.push({
          id: momentId(mediaId, first.frame.t, end),
          mediaId,
          libraryId: first.frame.library_id,
          startTime: first.frame.t,
          endTime: end,
          text: '',
          score: Math.max(...run.map((r) => r.score)),
          confidence: confidenceOf(Math.max(...run.map((r) => r.score))),
        });
        run = [];
      };
      for (const s of list) {
        const prev = run[run.length - 1];
        if (prev && (index.get(s.frame.t) ?? -9) !== (index.get(prev.frame.t) ?? -9) + 1) flush();
        run.push(s);
      }
      flush();
    }
    return out.sort((a, b) => b.score - a.score);
  }

  /**
   * `image` is the query image's embedding when the request has one, started by the caller while it
   * checks access (decoding and embedding a photo is the slowest step of an image search).
   */
  private async visual(libraryIds: string[], req: SearchRequest, image?: Promise<Float32Array>): Promise<Moment[]> {
    if (req.clipId) {
      const m = parseMomentId(req.clipId);
      if (!m) throw badRequest('clipId is not a moment id');
      const media = await this.d.media.byId(m.mediaId);
      if (!media || !libraryIds.includes(media.library_id)) throw new AppError('not_found', MSG_SEARCH.momentNotFound);
      const v = await this.d.search.meanEmbedding(m.mediaId, m.start, m.end);
      if (!v) return [];
      const { scored, known } = await this.visualByEmbedding(libraryIds, v, req.mediaIds, m);
      return this.toMoments(scored, known);
    }
    if (req.image) {
      const { scored, known } = await this.visualByEmbedding(libraryIds, await (image ?? this.imageEmbedding(req.image)), req.mediaIds);
      return this.toMoments(scored, known);
    }
    if (req.text?.trim()) {
      const { scored, known } = await this.visualByText(libraryIds, req.text.trim(), req.mediaIds);
      return this.toMoments(scored, known);
    }
    return [];
  }

  /**
   * A transcript query's expansion by meaning (queryExpansion.ts), made once per text: WordNet walks
   * cost up to milliseconds of this thread for a new word, and the same words come back.
   */
  private readonly expansions = new LRUCache<string, QueryExpansion>({ max: 1000 });

  private expansion(text: string): QueryExpansion {
    let e = this.expansions.get(text);
    if (!e) {
      e = expandQuery(text, this.d.models.relatedWords);
      this.expansions.set(text, e);
    }
    return e;
  }

  /**
   * Segments holding any query word or a word of the same meaning, scored by BM25 with phrase
   * proximity (transcriptScore.ts), with the words that matched and why. CLIPSEEK_TRANSCRIPT_EXPANSION=off
   * matches the query's own words only (what the benches compare against).
   */
  private async transcript(libraryIds: string[], req: SearchRequest, limit: number): Promise<Moment[]> {
    const text = req.text?.trim();
    if (!text) return [];
    const expand = process.env.CLIPSEEK_TRANSCRIPT_EXPANSION !== 'off';
    const expansion = expand ? this.expansion(text) : expandQuery(text, null);
    const plan = await this.d.search.transcriptPlan(expansion, `${expand ? 'meaning' : 'words'}:${text}`);
    if (!plan.query.length) return [];
    const { stats, rows } = await this.d.search.transcriptCandidates(libraryIds, plan, req.mediaIds, TRANSCRIPT_CANDIDATES);
    return rows
      .map((r): Moment => {
        const m = transcriptMatch(plan, r.tsv, stats, { negated: isNegated(r.text), strong: STRONG_WEIGHT });
        return {
          id: momentId(r.media_id, r.start, r.end),
          mediaId: r.media_id,
          libraryId: r.library_id,
          startTime: r.start,
          endTime: r.end,
          text: r.text,
          score: m.score,
          confidence: confidenceOf(m.score),
          ...(m.score > 0 && {
            match: {
              words: wordsMatching(r.text, m.lexemes),
              reasons: [...new Set(m.related.map((t) => matchReason(t.from, t.said, t.relation)))],
            },
          }),
        };
      })
      .filter((m) => m.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  /**
   * Both lists on their common scale; a moment seen and said (overlapping moments of one media)
   * merges into one scored as independent evidence, 1-(1-a)(1-b), so agreement raises confidence.
   */
  private fuse(visual: Moment[], spoken: Moment[]): Moment[] {
    const all = [...visual, ...spoken].map((m) => ({ ...m }));
    all.sort((a, b) => a.mediaId.localeCompare(b.mediaId) || a.startTime - b.startTime);
    const merged: Moment[] = [];
    for (const m of all) {
      const last = merged[merged.length - 1];
      if (last && last.mediaId === m.mediaId && m.startTime < last.endTime) {
        last.endTime = Math.max(last.endTime, m.endTime);
        last.score = 1 - (1 - last.score) * (1 - m.score);
        last.confidence = confidenceOf(last.score);
        last.text = [last.text, m.text].filter(Boolean).join(' ');
        if (m.match)
          last.match = last.match
            ? {
                words: [...new Set([...last.match.words, ...m.match.words])],
                reasons: [...new Set([...last.match.reasons, ...m.match.reasons])],
              }
            : m.match;
        last.id = momentId(last.mediaId, last.startTime, last.endTime);
      } else merged.push(m);
    }
    return merged.sort((a, b) => b.score - a.score);
  }

  async search(
    session: Pick<Session, 'user' | 'libraryIds'>,
    libraryId: string,
    type: SearchResultType,
    req: SearchRequest,
    limit = SEARCH_DEFAULT_LIMIT,
    offset = 0,
  ): Promise<SearchResults> {
    const image = this.queryImage(type, req);
    const libraryIds = await this.d.access.libraries(session.user.id, [libraryId], session.libraryIds);
    const moments = await this.moments(libraryIds, type, req, limit + offset, image);
    const page = moments.slice(offset, offset + limit);
    const medias = await this.medias(page);
    // Say honestly what the index could not compute (e.g. CLIP not installed).
    const missingFeatures = [...new Set([...this.d.models.missing, ...Object.values(medias).flatMap((m) => m.missingFeatures)])];
    return { results: page, medias, missingFeatures };
  }

  async searchMany(
    session: Pick<Session, 'user' | 'libraryIds'>,
    libraryIds: string[],
    req: SearchRequest,
    limit = SEARCH_DEFAULT_LIMIT,
    offset = 0,
  ): Promise<MultiSearchResults> {
    const image = this.queryImage('visual', req);
    await this.d.access.libraries(session.user.id, libraryIds, session.libraryIds);
    const results: MultiSearchResults['results'] = [];
    const all: Moment[] = [];
    for (const id of libraryIds) {
      const moments = (await this.moments([id], 'visual', req, limit + offset, image)).slice(offset, offset + limit);
      results.push({ libraryId: id, results: moments });
      all.push(...moments);
    }
    return { results, medias: await this.medias(all) };
  }

  /**
   * The query image's embedding, when a search of this type uses one: started before the access
   * check so the two overlap, and computed once a request (not once per library searched).
   */
  private queryImage(type: SearchResultType, req: SearchRequest): Promise<Float32Array> | undefined {
    if (!req.image || req.clipId || type === 'transcript') return undefined;
    const v = this.imageEmbedding(req.image);
    // A bad image is reported when the search awaits it, after the access check has had its say.
    v.catch(() => undefined);
    return v;
  }

  private async moments(libraryIds: string[], type: SearchResultType, req: SearchRequest, n: number, image?: Promise<Float32Array>) {
    const clamp = (ms: Moment[]) => ms.slice(0, n);
    switch (type) {
      case 'visual':
        return clamp(await this.visual(libraryIds, req, image));
      case 'transcript':
        return clamp(await this.transcript(libraryIds, req, n));
      case 'unified': {
        // The two lists are independent: read together (on PostgreSQL, on two connections at once).
        const [seen, said] = await Promise.all([this.visual(libraryIds, req, image), this.transcript(libraryIds, req, n)]);
        return clamp(this.fuse(seen, said));
      }
    }
  }

  private async medias(moments: Moment[]): Promise<Record<string, Media>> {
    const rows = await this.d.media.manyById([...new Set(moments.map((m) => m.mediaId))]);
    return Object.fromEntries(rows.map((r) => [r.id, toMedia(r)]));
  }
}
