import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { byterangesBoundary, MultipartRangeParser, type RangePart } from '../../workers/thumbnails/multipartRanges';
import { MAX_RANGES, parseRanges, rangeResponse } from './byteRanges';

const file = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 255));
const open = ({ start, end }: { start: number; end: number }) => Readable.from([file.subarray(start, end)]);

async function collect(body: Readable | null) {
  const chunks: Buffer[] = [];
  for await (const c of body!) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('parseRanges', () => {
  it('reads single, open-ended, suffix and multiple ranges in the order asked', () => {
    expect(parseRanges('bytes=0-99', 5000)).toEqual([{ start: 0, end: 100 }]);
    expect(parseRanges('bytes=4990-', 5000)).toEqual([{ start: 4990, end: 5000 }]);
    expect(parseRanges('bytes=-10', 5000)).toEqual([{ start: 4990, end: 5000 }]);
    expect(parseRanges('bytes=300-399, 0-9,4999-6000', 5000)).toEqual([
      { start: 300, end: 400 },
      { start: 0, end: 10 },
      { start: 4999, end: 5000 },
    ]);
  });

  it('drops ranges past the end, refuses when none is left or there are too many, ignores what it cannot read', () => {
    expect(parseRanges('bytes=0-9,6000-6100', 5000)).toEqual([{ start: 0, end: 10 }]);
    expect(parseRanges('bytes=5000-', 5000)).toBe('unsatisfiable');
    // a suffix of no bytes asks for nothing (RFC 9110 §14.1.2), it is not a request for the whole file
    expect(parseRanges('bytes=-0', 5000)).toBe('unsatisfiable');
    expect(parseRanges('bytes=-0, -00', 5000)).toBe('unsatisfiable');
    expect(parseRanges('bytes=-0,0-9', 5000)).toEqual([{ start: 0, end: 10 }]);
    const many = Array.from({ length: MAX_RANGES + 1 }, (_, i) => `${i * 10}-${i * 10 + 4}`).join(',');
    expect(parseRanges(`bytes=${many}`, 5000)).toBe('unsatisfiable');
    expect(parseRanges(undefined, 5000)).toBeNull();
    expect(parseRanges('items=0-9', 5000)).toBeNull();
    expect(parseRanges('bytes=9-0', 5000)).toBeNull();
    expect(parseRanges('bytes=a-b', 5000)).toBeNull();
    // overlapping ranges (the same bytes asked for again and again) are ignored: the file is sent once
    expect(parseRanges('bytes=0-,0-', 5000)).toBeNull();
    expect(parseRanges('bytes=100-199,150-160', 5000)).toBeNull();
    expect(parseRanges('bytes=100-199,200-299', 5000)).toHaveLength(2);
  });
});

describe('rangeResponse', () => {
  it('serves the whole file, one range, or 416', async () => {
    const whole = rangeResponse(undefined, file.length, 'video/mp4', open);
    expect(whole.status).toBe(200);
    expect((await collect(whole.body)).equals(file)).toBe(true);
    const one = rangeResponse('bytes=10-19', file.length, 'video/mp4', open);
    expect(one.status).toBe(206);
    expect(one.headers['content-range']).toBe('bytes 10-19/5000');
    expect((await collect(one.body)).equals(file.subarray(10, 20))).toBe(true);
    const none = rangeResponse('bytes=7000-', file.length, 'video/mp4', open);
    expect(none).toMatchObject({ status: 416, body: null, headers: { 'content-range': 'bytes */5000' } });
  });

  it('serves several ranges as multipart/byteranges that the worker parser reads back, in any chunking', async () => {
    const res = rangeResponse('bytes=100-199,2000-2999,4990-', file.length, 'video/mp4', open);
    expect(res.status).toBe(206);
    const boundary = byterangesBoundary(String(res.headers['content-type']));
    expect(boundary).toBeTruthy();
    const body = await collect(res.body);
    expect(body.length).toBe(res.headers['content-length']);
    for (const chunkSize of [1, 7, 64, 1000, body.length]) {
      const parts: RangePart[] = [];
      const parser = new MultipartRangeParser(boundary!, (p) => parts.push(p));
      for (let i = 0; i < body.length; i += chunkSize) parser.push(body.subarray(i, i + chunkSize));
      parser.end();
      expect(parts.map((p) => [p.start, p.bytes.length, p.size])).toEqual([
        [100, 100, 5000],
        [2000, 1000, 5000],
        [4990, 10, 5000],
      ]);
      for (const p of parts) expect(Buffer.from(p.bytes).equals(file.subarray(p.start, p.start + p.bytes.length))).toBe(true);
    }
  });
});

describe('MultipartRangeParser', () => {
  it('hands each part over as soon as it is complete', () => {
    const body = Buffer.from(
      '--b\r\ncontent-range: bytes 0-2/9\r\n\r\nabc\r\n--b\r\ncontent-range: bytes 6-8/9\r\n\r\nxyz\r\n--b--\r\n',
      'latin1',
    );
    const seen: string[] = [];
    const parser = new MultipartRangeParser('b', (p) => seen.push(Buffer.from(p.bytes).toString()));
    parser.push(body.subarray(0, 38)); // through the first part's body
    expect(seen).toEqual(['abc']);
    parser.push(body.subarray(38));
    parser.end();
    expect(seen).toEqual(['abc', 'xyz']);
  });

  it('fails clearly on a cut body or a part without a range', () => {
    const cut = new MultipartRangeParser('b', () => undefined);
    cut.push(Buffer.from('--b\r\ncontent-range: bytes 0-9/10\r\n\r\nabc'));
    expect(() => cut.end()).toThrow('The response ended inside a part');
    const bare = new MultipartRangeParser('b', () => undefined);
    expect(() => bare.push(Buffer.from('--b\r\ncontent-type: video/mp4\r\n\r\nabc'))).toThrow('A part has no byte Content-Range');
    expect(byterangesBoundary('multipart/byteranges; boundary="x y"')).toBe('x y');
    expect(byterangesBoundary('video/mp4')).toBeNull();
  });
});
