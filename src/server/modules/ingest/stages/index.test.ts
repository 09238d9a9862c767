import { describe, expect, it } from 'vitest';
import { STAGES } from '../ingest.service';
import { STAGE_HANDLERS } from '.';

describe('the stage table', () => {
  it('has exactly one handler for every stage, and none for anything else', () => {
    expect(Object.keys(STAGE_HANDLERS).sort()).toEqual([...STAGES].sort());
    for (const stage of STAGES) expect(STAGE_HANDLERS[stage], stage).toBeTypeOf('function');
    // No handler serves two stages (a copy-paste slip would run one stage's work twice).
    expect(new Set(Object.values(STAGE_HANDLERS)).size).toBe(STAGES.length);
  });
});
