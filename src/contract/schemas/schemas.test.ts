import { describe, expectTypeOf, it, expect } from 'vitest';
import * as schemas from '.';
import { MEDIA_SORT_VALUES } from '..';
import type {
  CompilationBody,
  GifBody,
  MediaRangeQuery,
  MediaSortValue,
  RenderHeight,
  SearchQuery,
  SrtQuery,
  UploadStartBody,
  UsageHistoryQuery,
} from '..';

describe('request schemas', () => {
  it('derive the types the routes receive and the app sends', () => {
    expectTypeOf<SrtQuery>().toEqualTypeOf<{ start?: number; end?: number; filename?: string }>();
    expectTypeOf<GifBody>().toEqualTypeOf<{ start: number; end: number; filename?: string; watermark?: boolean }>();
    expectTypeOf<CompilationBody['height']>().toEqualTypeOf<RenderHeight | undefined>();
    expectTypeOf<SearchQuery>().toEqualTypeOf<{ limit?: number; offset?: number; threshold?: number }>();
    expectTypeOf<UsageHistoryQuery>().toEqualTypeOf<{ limit?: number; olderThan?: string }>();
    expectTypeOf<MediaRangeQuery['direction']>().toEqualTypeOf<1 | -1 | undefined>();
    expectTypeOf<MediaSortValue>().toExtend<NonNullable<MediaRangeQuery['sort']>>();
    expectTypeOf<UploadStartBody['deduplicationPolicy']>().toEqualTypeOf<{ onConflict: 'error' }>();
  });

  it('are plain JSON Schema, and every query lists its keys', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      if (typeof schema !== 'object' || !name.endsWith('Schema')) continue;
      expect(JSON.parse(JSON.stringify(schema)), name).toEqual({ ...schema });
      if (name.endsWith('QuerySchema')) expect((schema as { additionalProperties?: boolean }).additionalProperties, name).toBe(false);
    }
  });

  it('accept every sort value the app stores', () => {
    const pattern = new RegExp((schemas.mediaSortQuerySchema.properties.sort as unknown as { pattern: string }).pattern);
    for (const v of [...MEDIA_SORT_VALUES, 'title']) expect(pattern.test(v), v).toBe(true);
    for (const v of ['abc', 'title#2', 'title#1#1', '']) expect(pattern.test(v), v).toBe(false);
  });
});

describe('searchImageSendSize', () => {
  it('scales a photo longer than the limit to fit it, keeping its shape', () => {
    expect(schemas.searchImageSendSize(1352, 900, 1_415_684)).toEqual({ width: 1280, height: 852 });
    expect(schemas.searchImageSendSize(3024, 4032, 200_000)).toEqual({ width: 960, height: 1280 });
  });
  it('redraws a photo within the side limit at its own size only when its bytes are over the limit', () => {
    expect(schemas.searchImageSendSize(1280, 720, 1_500_000)).toBeNull();
    expect(schemas.searchImageSendSize(1280, 720, 1_500_001)).toEqual({ width: 1280, height: 720 });
    expect(schemas.searchImageSendSize(768, 576, 163_759)).toBeNull();
  });
});
