// Search latency end to end over HTTP, on an index the size of 100 hours of video: 50 two-hour
// media, 180,000 keyframes (one every 2 s) and 90,000 transcript segments, seeded synthetically into
// the embedded database (or the PostgreSQL of DATABASE_URL). SEARCH_BENCH_HOURS=1000 seeds one
// library ten times that size (500 media, 1.8 M keyframes, 0.9 M segments; issue 41, on PostgreSQL). Keyframes come in shots of 2 to 6 (about 45,000 shots); each shot shows one
// of 5,000 scenes: its labels (COCO objects, ImageNet classes and colours, expanded through the real
// WordNet as ingest does, and the shot index rows ingest writes), its image embedding (1280-d,
// non-negative like pooled CNN features) with per-keyframe noise, sometimes on-screen words.
// Transcript lines are ten random words of a 600-word vocabulary.
// The seeded data directory (about 4 GB, 10-20 min to seed) is kept in tests/bench/out/search-100h-v2,
// or in SEARCH_BENCH_DIR when set (e.g. outside a worktree); delete it to seed afresh.
// Queries go through the public API exactly as the app sends them: text, image (real photos through
// the real classifier, scaled down as the app's search bar scales a large photo before sending it:
// searchImageSendSize), moment (clipId),
// transcript and unified. Image search is also timed with the photos as they are on disk, as an API
// client may send them: kite.jpg (1352 x 900, 1.4 MB) is one the app would scale.
import fs from 'node:fs';
import path from 'node:path';
import { encode } from '@msgpack/msgpack';
import { sql } from 'kysely';
import sharp from 'sharp';
import { API, momentId, SEARCH_IMAGE_SEND_QUALITY, searchImageSendSize, type SearchResults } from '../../src/contract';
import { createWordNet } from '../../src/server/adapters/models/index';
import { readImagenetLabels } from '../../src/server/adapters/models/mobilenet';
import { EMBEDDING_DIMS, projectEmbedding } from '../../src/server/modules/ingest/embeddingProjection';
import { startServer } from '../../src/server/main';
import { cachedExpander, shotTermScores } from '../../src/server/modules/search/visualTerms';
import { MODELS_DIR } from '../fixtures/modelsDir';
import { client } from '../integration/support/harness';
import { waitForStatus } from '../integration/support/upload';

const REPO = path.resolve(import.meta.dirname, '../..');
const HOURS = Number(process.env.SEARCH_BENCH_HOURS ?? 100);
const DATA_DIR = process.env.SEARCH_BENCH_DIR
  ? path.resolve(process.env.SEARCH_BENCH_DIR)
  : path.join(REPO, `tests/bench/out/search-${HOURS}h-v2`);
const MARK = path.join(DATA_DIR, 'bench-seed.json');
const MEDIA_SECONDS = 7200;
const MEDIA = Math.round((HOURS * 3600) / MEDIA_SECONDS);
const KEYFRAME_EVERY = 2;
const SCENES = 5000;
const SEGMENT_SECONDS = 4;
const COLOURS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'black', 'white', 'grey'];
const WORDS = (
  'time year people way day man thing woman life child world school state family student group country problem hand part place case ' +
  'week company system program question work government number night point home water room mother area money story fact month lot ' +
  'right study book eye job word business issue side kind head house service friend father power hour game line end member law car ' +
  'city community name president team minute idea kid body information back parent face others level office door health person art ' +
  'war history party result change morning reason research girl guy moment air teacher force education foot boy age policy music ' +
  'market sense nation plan college interest death experience effect use class control care field development role effort rate heart ' +
  'drug show leader light voice wife police mind price report decision son view relationship town road arm difference value building ' +
  'action model season society tax director position player record paper space ground form event official matter center couple site ' +
  'project activity star table need court oil situation cost industry figure street image phone data picture practice piece land ' +
  'product doctor wall patient worker news test movie north love support technology step baby computer type attention film tree source ' +
  'organization hair window evidence population site training truth beach river mountain forest ocean sunset sky cloud rain snow ' +
  'bridge garden kitchen dinner breakfast lunch coffee dog cat horse bird fish boat train plane bicycle ball kite camera guitar piano ' +
  'song dance party wedding birthday holiday summer winter spring autumn island lake desert village farm market restaurant hotel ' +
  'airport station museum church castle tower stadium park zoo school hospital library theater concert festival parade fireworks ' +
  'journey adventure travel vacation weekend evening afternoon midnight sunrise moonlight shadow color red green blue yellow orange ' +
  'purple black white golden silver happy sad quiet loud fast slow beautiful strange wonderful amazing terrible simple quick heavy ' +
  'walk run jump swim fly drive ride climb cook eat drink sing play read write paint build open close start stop watch listen ' +
  'laugh smile cry talk call help find lose win catch throw carry hold push pull turn follow lead meet leave arrive return'
).split(' ');

const pct = (xs: number[], p: number) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const rand = (() => {
  let a = 20261122;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const vec = (v: Float32Array) => `[${Array.from(v, (x) => x.toFixed(4)).join(',')}]`;

const email = 'search-bench@example.com';
const password = 'bench-password';
const fresh = !fs.existsSync(MARK);
if (fresh) fs.rmSync(DATA_DIR, { recursive: true, force: true });
fs.mkdirSync(DATA_DIR, { recursive: true });
const server = await startServer({
  PORT: '0',
  DATA_DIR,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  WEB_DIR: path.join(DATA_DIR, 'none'),
  MODELS_DIR,
});
const api = client(server.url);
const db = server.database.db;

let token: string;
let libraryId: string;
if (fresh) {
  const t0 = performance.now();
  token = (await api('POST', API.register, { body: { email, password } })).body.token!;
  await db.updateTable('users').set({ is_verified: true }).execute();
  const demo = (
    await api<Array<{ _id: string; isDemo: boolean; latestMediaIds: string[] }>>('GET', API.libraries, { token })
  ).body.data!.find((l) => l.isDemo)!;
  for (const id of demo.latestMediaIds) await waitForStatus({ api } as never, token, demo._id, id, ['completed', 'errored'], 300_000);
  const lib = (
    await api<{ _id: string; rootFolderId: string }>('POST', API.libraries, {
      token,
      body: { name: `${HOURS} hours`, settings: { v1: {} } },
    })
  ).body.data!;
  libraryId = lib._id;
  const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();

  // Shots: labels as the visual stage stores them, terms expanded as ingest expands them.
  const coco = fs
    .readFileSync(path.join(MODELS_DIR, 'coco80_labels.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const imagenet = readImagenetLabels(MODELS_DIR).map((l) => l.label);
  const wordnet = createWordNet(MODELS_DIR);
  const expand = cachedExpander((l) => wordnet.expandLabel(l));
  await sql`create table bench_shots (i int primary key, objects jsonb, classes jsonb, colours jsonb, ocr text, terms text, e vector(1280), r vector(256))`.execute(
    db,
  );
  await sql`create table bench_scene_terms (i int, term text, score real)`.execute(db);
  for (let i0 = 0; i0 < SCENES; i0 += 100) {
    const rows = [];
    const termRows: Array<{ i: number; term: string; score: number }> = [];
    for (let i = i0; i < Math.min(SCENES, i0 + 100); i++) {
      const objects = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
        label: pick(coco),
        score: 0.4 + rand() * 0.6,
        box: [rand() * 0.5, rand() * 0.5, 0.5 + rand() * 0.5, 0.5 + rand() * 0.5],
      }));
      const classes = Array.from({ length: 2 }, () => ({ label: pick(imagenet), wnid: '', score: 0.2 + rand() * 0.7 }));
      const colours = Array.from({ length: 2 }, () => ({ name: pick(COLOURS), fraction: 0.1 + rand() * 0.5 }));
      const ocr = rand() < 0.1 ? Array.from({ length: 3 }, () => pick(WORDS)).join(' ') : '';
      const labels = [...objects.map((o) => o.label), ...classes.map((c) => c.label), ...colours.map((c) => c.name)];
      const terms = [
        ...new Set(
          [...labels.flatMap((l) => wordnet.expandLabel(l)), ...ocr.split(' ')]
            .flatMap((t) => t.toLowerCase().split(/[^a-z0-9]+/))
            .filter(Boolean),
        ),
      ].join(' ');
      const e = Float32Array.from({ length: EMBEDDING_DIMS }, () => Math.max(0, (rand() + rand() + rand() - 1.5) * 2));
      rows.push({
        i,
        objects: JSON.stringify(objects),
        classes: JSON.stringify(classes),
        colours: JSON.stringify(colours),
        ocr,
        terms,
        e: vec(e),
        r: vec(projectEmbedding(e)),
      });
      for (const [term, score] of shotTermScores([{ objects, classes, colours, ocr }], expand)) termRows.push({ i, term, score });
    }
    await db
      .insertInto('bench_shots' as never)
      .values(rows as never)
      .execute();
    for (let j = 0; j < termRows.length; j += 2000)
      await db
        .insertInto('bench_scene_terms' as never)
        .values(termRows.slice(j, j + 2000) as never)
        .execute();
  }
  console.log(`seeded ${SCENES} scenes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const perMedia = MEDIA_SECONDS / KEYFRAME_EVERY;
  // Bulk load: the search indexes are built once the rows are in (as a restore would), not kept up
  // row by row (the HNSW graph alone made each media take ~1 min). Rebuilt below with the
  // migrations' own definitions, so the index searched is the one a live library has.
  const searchIndexes = [
    sql`create index keyframes_terms on keyframes using gin (terms)`,
    sql`create index keyframes_embedding_r on keyframes using hnsw (embedding_r vector_cosine_ops)`,
    sql`create index transcript_library_tsv on transcript_segments using gin (library_id, tsv)`,
    sql`create index shot_terms_rank on shot_terms (library_id, term, score desc)`,
  ];
  for (const name of ['keyframes_terms', 'keyframes_embedding_r', 'transcript_library_tsv', 'shot_terms_rank'])
    await sql`drop index ${sql.id(name)}`.execute(db);
  for (let m = 0; m < MEDIA; m++) {
    const t1 = performance.now();
    const media = await db
      .insertInto('media')
      .values({
        user_id: user.id,
        library_id: libraryId,
        folder_id: lib.rootFolderId,
        unique_id: `bench-${m}`,
        status: 'completed',
        progress: 1,
        kind: 'video',
        name: `Recording ${String(m + 1).padStart(2, '0')}`,
        filename: `recording-${m + 1}.mp4`,
        blob_key: `bench/none-${m}`,
        size_bytes: 4_000_000_000,
        duration: MEDIA_SECONDS,
        width: 1280,
        height: 720,
        frame_count: MEDIA_SECONDS * 30,
        probe: JSON.stringify({ kind: 'video', formatName: 'mov,mp4,m4a,3gp,3g2,mj2', frameRate: 30, duration: MEDIA_SECONDS }),
        origin: JSON.stringify({ source: 'user' }),
        has_preview: false,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    // Shots of 2 to 6 keyframes, each showing a random scene: shots, shot index rows, keyframes with
    // the scene's labels and its embedding plus noise (full and projected alike).
    const shotOf: number[] = [];
    const sceneOf: number[] = [];
    for (let shot = 0; shotOf.length < perMedia; shot++) {
      sceneOf.push(Math.floor(rand() * SCENES));
      const len = 2 + Math.floor(rand() * 5);
      for (let j = 0; j < len && shotOf.length < perMedia; j++) shotOf.push(shot);
    }
    await sql`insert into shots (media_id, idx, start, "end", description)
      select ${media.id}, shot - 1, min(g) * ${KEYFRAME_EVERY}, (max(g) + 1) * ${KEYFRAME_EVERY}, ''
      from unnest(${shotOf}::int[]) with ordinality as x(s, g1), lateral (select x.s + 1 as shot, (x.g1 - 1)::int as g) y
      group by shot`.execute(db);
    await sql`insert into shot_terms (library_id, media_id, shot_idx, term, score)
      select ${libraryId}, ${media.id}, (x.idx - 1)::int, t.term, t.score
      from unnest(${sceneOf}::int[]) with ordinality as x(scene, idx) join bench_scene_terms t on t.i = x.scene`.execute(db);
    await sql`insert into keyframes (media_id, library_id, t, shot_idx, objects, classes, colours, ocr, terms, embedding, embedding_r)
      select ${media.id}, ${libraryId}, (x.g - 1) * ${KEYFRAME_EVERY}, x.shot, s.objects, s.classes, s.colours, s.ocr,
        to_tsvector('simple', s.terms),
        (select array_agg(greatest(0, v + (random() * 0.2 - 0.1))::real) from unnest(s.e::real[]) v)::vector,
        (select array_agg((v + (random() * 7 - 3.5))::real) from unnest(s.r::real[]) v)::vector
      from unnest(${shotOf}::int[]) with ordinality as x(shot, g)
      join bench_shots s on s.i = (${sceneOf}::int[])[x.shot + 1]`.execute(db);
    await sql`insert into transcript_segments (media_id, library_id, start, "end", text)
      select ${media.id}, ${libraryId}, g * ${SEGMENT_SECONDS}, g * ${SEGMENT_SECONDS} + ${SEGMENT_SECONDS - 0.5}::float8,
        array_to_string(array(select (${WORDS}::text[])[1 + floor(random() * ${WORDS.length})::int] from generate_series(1, 10) where g >= 0), ' ')
      from generate_series(0, ${MEDIA_SECONDS / SEGMENT_SECONDS - 1}) g`.execute(db);
    process.stdout.write(`media ${m + 1}/${MEDIA} seeded in ${((performance.now() - t1) / 1000).toFixed(1)} s\r`);
  }
  const built = performance.now();
  for (const index of searchIndexes) await index.execute(db);
  console.log(`\nsearch indexes built in ${((performance.now() - built) / 1000).toFixed(0)} s`);
  await sql`drop table bench_shots`.execute(db);
  await sql`drop table bench_scene_terms`.execute(db);
  await sql`analyze`.execute(db);
  fs.writeFileSync(MARK, JSON.stringify({ libraryId }));
  console.log(`\nseeded ${HOURS} h (${MEDIA * perMedia} keyframes) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} else {
  libraryId = (JSON.parse(fs.readFileSync(MARK, 'utf8')) as { libraryId: string }).libraryId;
  token = (await api('POST', API.login, { body: { email, password } })).body.token!;
}

const counts = await sql<{ k: number; s: number }>`select (select count(*) from keyframes where library_id = ${libraryId})::int k,
  (select count(*) from transcript_segments where library_id = ${libraryId})::int s`.execute(db);
console.log(`index: ${counts.rows[0]!.k} keyframes, ${counts.rows[0]!.s} transcript segments`);

// Each body is encoded once, as a client encodes a search once: what is timed is the request, the
// server's answer and decoding it (encoding a 1.4 MB photo's data URL alone takes ~13 ms here).
const encoded = new Map<object, Uint8Array>();

async function search(kind: 'visual' | 'transcript' | 'unified', body: object, library = libraryId) {
  const path =
    kind === 'visual' ? API.searchVisual(library) : kind === 'transcript' ? API.searchTranscript(library) : API.searchUnified(library);
  if (!encoded.has(body)) encoded.set(body, encode(body));
  const r = await api<SearchResults>('POST', path, { token, encoded: encoded.get(body) });
  if (r.status !== 200) throw new Error(`${kind} ${JSON.stringify(body).slice(0, 80)} answered ${r.status}: ${r.body.error?.message}`);
  return r.body.data!;
}

const photoFile = (name: string) => fs.readFileSync(`/usr/share/darknet/data/${name}.jpg`);
const dataUrl = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString('base64')}`;
/**
 * A photo as the app's search bar sends it (SearchBar.tsx, imageQueryUrl): at the contract's
 * searchImageSendSize as a JPEG of SEARCH_IMAGE_SEND_QUALITY (sharp encodes it here, 4:2:0 like a
 * browser's canvas), or as it is.
 */
async function asTheAppSends(file: Buffer): Promise<string> {
  const meta = await sharp(file).metadata();
  const size = searchImageSendSize(meta.width ?? 0, meta.height ?? 0, file.length);
  if (!size) return dataUrl(file);
  return dataUrl(
    await sharp(file)
      .resize(size.width, size.height, { fit: 'fill' })
      .jpeg({ quality: Math.round(SEARCH_IMAGE_SEND_QUALITY * 100), chromaSubsampling: '4:2:0' })
      .toBuffer(),
  );
}
const texts = [
  'dog',
  'animal',
  'red car',
  'person with an umbrella',
  'bird',
  'vehicle',
  'cat on a sofa',
  'green',
  'boat',
  'horses',
  'food',
  'kite in the sky',
];
const phrases = [
  'beach at sunset',
  'coffee',
  'the river and the mountain',
  'birthday party',
  'train station',
  'happy dog',
  'music',
  'walk home',
];
const photos = ['dog', 'horses', 'eagle', 'giraffe', 'person', 'kite'].map(photoFile);
const images = await Promise.all(photos.map(asTheAppSends));
const filesAsTheyAre = photos.map(dataUrl);
for (const [i, url] of images.entries())
  if (url !== filesAsTheyAre[i])
    console.log(
      `the app sends photo ${i + 1} scaled: ${Math.round(photos[i]!.length / 1024)} KB as a file, ${Math.round((url.length * 3) / 4 / 1024)} KB sent`,
    );
const seed = await search('visual', { text: 'dog' });
const clipIds = seed.results.slice(0, 8).map((m) => momentId(m.mediaId, m.startTime, m.endTime));
if (!clipIds.length) throw new Error('"dog" found nothing: the seeded index is not searchable');

const textBodies = texts.map((text) => ({ text }));
const imageBodies = images.map((image) => ({ image }));
const fileBodies = filesAsTheyAre.map((image) => ({ image }));
const momentBodies = clipIds.map((clipId) => ({ clipId }));
const phraseBodies = phrases.map((text) => ({ text }));
const cases: Array<{ name: string; run: (i: number) => Promise<SearchResults> }> = [
  { name: 'visual  text', run: (i) => search('visual', textBodies[i % texts.length]!) },
  { name: 'visual  image', run: (i) => search('visual', imageBodies[i % images.length]!) },
  { name: 'image, as files', run: (i) => search('visual', fileBodies[i % photos.length]!) },
  { name: 'visual  moment', run: (i) => search('visual', momentBodies[i % clipIds.length]!) },
  { name: 'transcript', run: (i) => search('transcript', phraseBodies[i % phrases.length]!) },
  { name: 'unified text', run: (i) => search('unified', textBodies[i % texts.length]!) },
];
/**
 * Transcript and unified search with expansion by meaning (issue 40) off, as before it, and on, in
 * turns request by request, so the two columns see the same machine: CLIPSEEK_TRANSCRIPT_EXPANSION
 * is read by each search (this server runs in this process).
 */
const expansion = (mode: 'off' | 'on', run: () => Promise<SearchResults>) => () => {
  process.env.CLIPSEEK_TRANSCRIPT_EXPANSION = mode;
  return run();
};
const paired: Array<{ name: string; off: (i: number) => Promise<SearchResults>; on: (i: number) => Promise<SearchResults> }> = [
  {
    name: 'transcript',
    off: (i) => expansion('off', () => search('transcript', phraseBodies[i % phrases.length]!))(),
    on: (i) => expansion('on', () => search('transcript', phraseBodies[i % phrases.length]!))(),
  },
  {
    name: 'unified text',
    off: (i) => expansion('off', () => search('unified', textBodies[i % texts.length]!))(),
    on: (i) => expansion('on', () => search('unified', textBodies[i % texts.length]!))(),
  },
];
const N = Number(process.env.BENCH_QUERIES ?? 60);
console.log(`\n${N} requests each, one at a time, limit 100 (the app's default), after 6 warm-ups\n`);
/** Times each case N times after 6 warm-ups: p50, p95, max and the mean number of results. */
async function timeCases(list: typeof cases) {
  console.log('query            p50 ms   p95 ms   max ms   mean results');
  for (const c of list) {
    for (let i = 0; i < 6; i++) await c.run(i);
    const times: number[] = [];
    let results = 0;
    for (let i = 0; i < N; i++) {
      const s = performance.now();
      const r = await c.run(i);
      times.push(performance.now() - s);
      results += r.results.length;
    }
    console.log(
      `${c.name.padEnd(15)} ${pct(times, 50).toFixed(1).padStart(7)} ${pct(times, 95).toFixed(1).padStart(8)} ${Math.max(...times)
        .toFixed(1)
        .padStart(8)}   ${(results / N).toFixed(0).padStart(6)}`,
    );
  }
}
await timeCases(cases);
console.log('\nexpansion by meaning (issue 40), off and on in turns:');
console.log('query              off p50  off p95   on p50   on p95   p95 on/off   results off/on');
for (const c of paired) {
  for (let i = 0; i < 8; i++) {
    await c.off(i);
    await c.on(i);
  }
  const off: number[] = [];
  const on: number[] = [];
  let rOff = 0;
  let rOn = 0;
  for (let i = 0; i < N; i++) {
    let s = performance.now();
    rOff += (await c.off(i)).results.length;
    off.push(performance.now() - s);
    s = performance.now();
    rOn += (await c.on(i)).results.length;
    on.push(performance.now() - s);
  }
  console.log(
    `${c.name.padEnd(17)} ${[pct(off, 50), pct(off, 95), pct(on, 50), pct(on, 95)].map((x) => x.toFixed(1).padStart(8)).join(' ')}   ` +
      `${(pct(on, 95) / pct(off, 95)).toFixed(2).padStart(10)}   ${(rOff / N).toFixed(0)}/${(rOn / N).toFixed(0)}`,
  );
}
delete process.env.CLIPSEEK_TRANSCRIPT_EXPANSION;

// A small library beside the big one: one of its two-hour media copied into a library of its own
// (its keyframes, shots, shot index rows and transcript), searched the same ways. The HNSW graph and
// the text indexes are shared by every library, so this is what a small account meets on a database
// that holds a big one (pgvector's iterative scans must walk past the other library's neighbours).
const small = await smallLibrary();
console.log(`\na ${MEDIA_SECONDS / 3600}-hour library beside it (one media copied; the same indexes):\n`);
const smallSeed = await search('visual', { text: 'dog' }, small);
const smallClips = smallSeed.results.slice(0, 8).map((m) => momentId(m.mediaId, m.startTime, m.endTime));
await timeCases([
  { name: 'visual  text', run: (i) => search('visual', textBodies[i % texts.length]!, small) },
  { name: 'visual  image', run: (i) => search('visual', imageBodies[i % images.length]!, small) },
  ...(smallClips.length
    ? [{ name: 'visual  moment', run: (i: number) => search('visual', { clipId: smallClips[i % smallClips.length]! }, small) }]
    : []),
  { name: 'transcript', run: (i) => search('transcript', phraseBodies[i % phrases.length]!, small) },
  { name: 'unified text', run: (i) => search('unified', textBodies[i % texts.length]!, small) },
]);

/** The small library (made once, kept with the seed): a copy of the big library's first media. */
async function smallLibrary(): Promise<string> {
  const name = 'one recording';
  const mine = (await api<Array<{ _id: string; name: string; rootFolderId: string }>>('GET', API.libraries, { token })).body.data!;
  const have = mine.find((l) => l.name === name);
  if (have) return have._id;
  const lib = (await api<{ _id: string; rootFolderId: string }>('POST', API.libraries, { token, body: { name, settings: { v1: {} } } }))
    .body.data!;
  const from = await db.selectFrom('media').select('id').where('library_id', '=', libraryId).orderBy('name').executeTakeFirstOrThrow();
  const copy = await sql<{ id: string }>`
    insert into media (user_id, library_id, folder_id, unique_id, status, progress, kind, name, filename, blob_key, size_bytes,
      duration, width, height, frame_count, probe, origin, has_preview)
    select user_id, ${lib._id}, ${lib.rootFolderId}, 'bench-small', status, progress, kind, name, filename, blob_key, size_bytes,
      duration, width, height, frame_count, probe, origin, has_preview
    from media where id = ${from.id} returning id`.execute(db);
  const id = copy.rows[0]!.id;
  await sql`insert into shots (media_id, idx, start, "end", description)
    select ${id}, idx, start, "end", description from shots where media_id = ${from.id}`.execute(db);
  await sql`insert into shot_terms (library_id, media_id, shot_idx, term, score)
    select ${lib._id}, ${id}, shot_idx, term, score from shot_terms where media_id = ${from.id}`.execute(db);
  await sql`insert into keyframes (media_id, library_id, t, shot_idx, objects, classes, colours, ocr, terms, embedding, embedding_r)
    select ${id}, ${lib._id}, t, shot_idx, objects, classes, colours, ocr, terms, embedding, embedding_r from keyframes where media_id = ${from.id}`.execute(
    db,
  );
  await sql`insert into transcript_segments (media_id, library_id, start, "end", text)
    select ${id}, ${lib._id}, start, "end", text from transcript_segments where media_id = ${from.id}`.execute(db);
  await sql`analyze`.execute(db);
  return lib._id;
}

// How much this machine alone spreads a timing, to read the p95 column by: the same fixed CPU-bound
// loop (one thread, no allocation, no I/O) timed 120 times. Where its p95 is ~1.4x its p50, so is any
// request's, whatever the server does.
const grid = new Float64Array(1 << 20).map((_, i) => ((i * 2654435761) % 1000) / 1000);
const loop = () => {
  let s = 0;
  for (let k = 0; k < 6; k++) for (let i = 0; i < grid.length; i++) s += grid[i]! * grid[(i * 7) & (grid.length - 1)]!;
  return s;
};
for (let i = 0; i < 5; i++) loop();
const loopTimes = Array.from({ length: 120 }, () => {
  const s = performance.now();
  loop();
  return performance.now() - s;
});
console.log(
  `\nmachine noise: a fixed CPU loop, p50 ${pct(loopTimes, 50).toFixed(1)} ms, p95 ${pct(loopTimes, 95).toFixed(1)} ms ` +
    `(p95/p50 ${(pct(loopTimes, 95) / pct(loopTimes, 50)).toFixed(2)})`,
);
// Issue 41's target at 1,000 hours is 150 ms; the 100-hour one is 100 ms.
console.log(`target: p95 <= ${HOURS > 100 ? 150 : 100} ms for every kind`);
await server.close();
