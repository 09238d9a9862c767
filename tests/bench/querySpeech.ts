// The spoken part of `npm run bench query-eval` (issue 40): transcript search by meaning. Sentences
// said by flite (voice slt), each its own clip, uploaded through the API and transcribed by the
// real pocketsphinx; the sentences are ones it transcribes word for word (each clip's transcript is
// printed, and one that differs is flagged; two it did not, 'my mother drank a cup of coffee' and
// 'the old man is walking his dog', were replaced by one it does, with their paraphrases). Then
// paraphrases sharing few content words with what was said, the sentences themselves (exact
// phrases), and things nobody says in them. The queries were written before the first search and
// nothing in the expansion was tuned to them. Each query set runs twice in the same process: with
// expansion by meaning off (CLIPSEEK_TRANSCRIPT_EXPANSION=off, the lexical search as before) and on.
import fs from 'node:fs';
import path from 'node:path';
import { API, type Moment, type SearchResults } from '../../src/contract';
import { makeSpeechVideo } from '../fixtures/makeMedia';
import type { client } from '../integration/support/harness';
import { uploadFile, waitForStatus } from '../integration/support/upload';

/** What is said, one sentence a clip. */
export const SENTENCES: Record<string, string> = {
  doctor: 'the doctor bought a new car',
  children: 'the children played in the garden',
  police: 'the police caught the thief',
  purse: 'she lost her purse at the station',
  bicycle: 'he fixed the broken bicycle',
  lawyer: 'my father is a lawyer in the city',
  baby: 'the baby is sleeping in her bed',
  plane: 'the plane landed at the airport',
  soup: 'i did not like the soup',
  dog: 'the dog ran across the road',
  icecream: 'we ate ice cream by the ocean',
  film: 'the film was very funny',
  students: 'the students are reading books in the library',
  spiders: 'my brother is afraid of spiders',
  truck: 'the man is driving a truck',
  president: 'the president gave a speech',
  pizza: 'the kids are eating pizza',
  rain: 'it is raining in the city today',
  fast: 'the car was very fast',
  uncle: 'my uncle is a pilot',
};

/** Said in other words: the query and the clip that says it. */
export const PARAPHRASES: Array<[string, string]> = [
  ['a physician purchased an automobile', 'doctor'],
  ['the kids were playing in the yard', 'children'],
  ['the cops arrested the robber', 'police'],
  ['a woman misplaced her handbag at the depot', 'purse'],
  ['he repaired the damaged bike', 'bicycle'],
  ['dad is an attorney in town', 'lawyer'],
  ['the infant is asleep', 'baby'],
  ['the aircraft touched down at the airfield', 'plane'],
  ['i did not enjoy the broth', 'soup'],
  ['a hound raced over the street', 'dog'],
  ['we had gelato at the seaside', 'icecream'],
  ['the movie was hilarious', 'film'],
  ['the pupils read novels', 'students'],
  ['my sibling fears arachnids', 'spiders'],
  ['a guy drives a lorry', 'truck'],
  ['the leader delivered an address', 'president'],
  ['youngsters are devouring pizza pie', 'pizza'],
  ['rainfall over the metropolis', 'rain'],
  ['the automobile was quick', 'fast'],
  ['a relative of mine is an aviator', 'uncle'],
];

/** Things nobody says in these clips. */
export const ABSENT_SPEECH = [
  'the astronaut floated in orbit',
  'a volcano erupted last night',
  'the pianist played a concerto',
  'we went skiing on the glacier',
  'the surgeon operated on his knee',
  'the printer ran out of ink',
  'a giraffe ate the leaves',
  'the election results were announced',
  'my laptop battery died',
  'the chemist mixed two acids',
  'a tornado destroyed the barn',
  'the orchestra tuned their violins',
];

type Api = ReturnType<typeof client>;

/** Uploads the sentences as clips into `libraryId` and waits for their transcripts: media id -> clip name. */
export async function ingestSpeech(api: Api, token: string, lib: { _id: string; rootFolderId: string }, dir: string) {
  const t = { api } as never;
  const mediaOf = new Map<string, string>();
  const t0 = performance.now();
  for (const [name, sentence] of Object.entries(SENTENCES)) {
    const file = path.join(dir, `said-${name}.mp4`);
    await makeSpeechVideo(file, [sentence], { gapSeconds: 0.5 });
    const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, `said-${name}.mp4`, fs.readFileSync(file));
    if (fin.status !== 200) throw new Error(`upload ${name}: ${fin.status}`);
    mediaOf.set(fin.body.data!._id, name);
  }
  for (const id of mediaOf.keys()) await waitForStatus(t, token, lib._id, id, ['completed'], 300_000);
  console.log(`${mediaOf.size} spoken clips ingested in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return mediaOf;
}

/** Runs the spoken queries with expansion off and on, printing hit@1, hit@5 and the absent share of each. */
export async function evaluateSpeech(api: Api, token: string, libraryId: string, mediaOf: Map<string, string>) {
  const search = async (text: string): Promise<Moment[]> => {
    const r = await api<SearchResults>('POST', API.searchTranscript(libraryId), { token, body: { text } });
    if (r.status !== 200) throw new Error(`${text}: ${r.status}`);
    return r.body.data!.results;
  };
  const nameOf = (m: Moment) => mediaOf.get(m.mediaId) ?? '?';
  const fmt = (m: Moment | undefined) => (m ? `${nameOf(m)} ${m.score.toFixed(2)} ${m.confidence}` : '-');
  // what pocketsphinx heard, against what was said
  console.log('\nspoken clips: what was said -> the transcript search reads');
  for (const [name, sentence] of Object.entries(SENTENCES)) {
    const heard = (await search(sentence)).find((m) => nameOf(m) === name)?.text ?? '(not found)';
    console.log(
      `${heard.toLowerCase().replace(/[^a-z' ]/g, '') === sentence ? '✓' : '✗ transcribed otherwise:'} ${name.padEnd(10)} ${heard}`,
    );
  }
  const figures: Record<string, { hit1: number; hit5: number; exact1: number; absent: number; confident: number }> = {};
  for (const mode of ['off', 'on'] as const) {
    process.env.CLIPSEEK_TRANSCRIPT_EXPANSION = mode;
    let hit1 = 0;
    let hit5 = 0;
    let confident = 0;
    console.log(`\nexpansion ${mode}: paraphrase, expected -> first three (clip score confidence) [reasons of the expected]`);
    for (const [q, want] of PARAPHRASES) {
      const r = await search(q);
      const rank = r.findIndex((m) => nameOf(m) === want);
      if (rank === 0) hit1++;
      if (rank >= 0 && rank < 5) hit5++;
      if (rank >= 0 && rank < 5 && r[rank]!.confidence !== 'low') confident++;
      const why = rank >= 0 ? ` [${r[rank]!.match?.reasons.join('; ') ?? ''}]` : '';
      console.log(
        `${rank === 0 ? '✓' : rank > 0 && rank < 5 ? '~' : '✗'} ${q.padEnd(44)} ${want.padEnd(9)} -> ${r.slice(0, 3).map(fmt).join(' | ')}${why}`,
      );
    }
    let exact1 = 0;
    for (const [name, sentence] of Object.entries(SENTENCES)) {
      const r = await search(sentence);
      if (r[0] && nameOf(r[0]) === name) exact1++;
      else console.log(`✗ exact ${sentence} -> ${r.slice(0, 2).map(fmt).join(' | ')}`);
    }
    let absent = 0;
    for (const q of ABSENT_SPEECH) {
      const r = await search(q);
      const clean = r.every((m) => m.confidence === 'low');
      if (clean) absent++;
      console.log(`${clean ? '✓' : '✗'} absent ${q.padEnd(40)} -> ${fmt(r[0])} (${r.length} results)`);
    }
    const n = PARAPHRASES.length;
    figures[mode] = {
      hit1: hit1 / n,
      hit5: hit5 / n,
      exact1: exact1 / Object.keys(SENTENCES).length,
      absent: absent / ABSENT_SPEECH.length,
      confident: confident / n,
    };
  }
  delete process.env.CLIPSEEK_TRANSCRIPT_EXPANSION;
  const n = PARAPHRASES.length;
  console.log(
    `\nspoken: ${n} paraphrases, ${Object.keys(SENTENCES).length} exact phrases, ${ABSENT_SPEECH.length} absent-speech queries over ${mediaOf.size} clips`,
  );
  for (const [mode, f] of Object.entries(figures))
    console.log(
      `expansion ${mode.padEnd(3)}: paraphrase hit@1 ${f.hit1.toFixed(2)}  hit@5 ${f.hit5.toFixed(2)} (target >= 0.7)  right answer high/medium ${f.confident.toFixed(2)}  ` +
        `exact-phrase hit@1 ${f.exact1.toFixed(2)}  absent with no confident match ${f.absent.toFixed(2)} (target >= 0.9)`,
    );
}
