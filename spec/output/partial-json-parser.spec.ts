import { NO_VALUE, PartialJsonParser } from '../../lib/output/partial-json-parser';
import { seededRandom as random } from '../support/seeded-random';

function value(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return Math.floor(rand() * 100000) / (rand() < 0.5 ? 1 : 100) - 500;
    case 1:
      return [
        '',
        'plain',
        'quote " inside',
        'back\\slash',
        'unicode é ✓',
        'line\nbreak',
        '{[brackets]}',
      ][Math.floor(rand() * 7)];
    case 2:
      return rand() < 0.5;
    case 3:
      return null;
    case 4:
      return `s${Math.floor(rand() * 1000)}`;
    case 5:
      return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 4) }, (_, i) => [
          `k${i}${rand() < 0.2 ? ' "q"' : ''}`,
          value(rand, depth + 1),
        ]),
      );
  }
}

/** Whether `partial` could be what `full` looked like earlier in the stream. */
function isPrefixOf(partial: unknown, full: unknown): boolean {
  if (typeof partial === 'string') return typeof full === 'string' && full.startsWith(partial);
  if (Array.isArray(partial)) {
    return (
      Array.isArray(full) &&
      partial.length <= full.length &&
      partial.every((item, i) =>
        i === partial.length - 1
          ? isPrefixOf(item, full[i])
          : JSON.stringify(item) === JSON.stringify(full[i]),
      )
    );
  }
  if (partial !== null && typeof partial === 'object') {
    if (full === null || typeof full !== 'object' || Array.isArray(full)) return false;
    return Object.entries(partial).every(
      ([key, item]) => key in full && isPrefixOf(item, (full as Record<string, unknown>)[key]),
    );
  }
  return partial === full;
}

describe('PartialJsonParser', () => {
  it('previews only prefixes of the final value, ending with it, for random JSON split at random points', () => {
    const rand = random(42);
    for (let run = 0; run < 300; run++) {
      const full =
        rand() < 0.5
          ? { root: value(rand, 0), list: [value(rand, 1), value(rand, 1)] }
          : [value(rand, 0)];
      const text = `Here it is:\n\`\`\`json\n${JSON.stringify(full, null, rand() < 0.5 ? 2 : undefined)}\n\`\`\``;
      const parser = new PartialJsonParser();
      let last: unknown = NO_VALUE;
      for (let i = 0; i < text.length;) {
        const size = 1 + Math.floor(rand() * 6);
        const preview = parser.push(text.slice(i, i + size));
        i += size;
        if (preview === NO_VALUE) continue;
        if (!isPrefixOf(preview, full)) {
          throw new Error(
            `run ${run}: ${JSON.stringify(preview)} is not a prefix of ${JSON.stringify(full)}`,
          );
        }
        last = preview;
      }
      expect(last).toEqual(full);
      expect(parser.fullText).toBe(text);
    }
  });

  it('emits nothing before the JSON starts and nothing after it ends', () => {
    const parser = new PartialJsonParser();
    expect(parser.push('Sure, here: ')).toBe(NO_VALUE);
    expect(parser.push('{"a": 1}')).toEqual({ a: 1 });
    expect(parser.push(' Anything else? {"b": 2}')).toBe(NO_VALUE);
  });

  it('does not repeat a preview when a delta changes nothing visible', () => {
    const parser = new PartialJsonParser();
    expect(parser.push('{"a": 1, ')).toEqual({ a: 1 });
    expect(parser.push('"b')).toBe(NO_VALUE);
    expect(parser.push('": 12')).toBe(NO_VALUE);
    expect(parser.push('3}')).toEqual({ a: 1, b: 123 });
  });

  it('shows a preview whenever the text grew by 1/8 character per member to copy, sharing the members already complete', () => {
    const items = Array.from({ length: 2000 }, (_, id) => ({ id, title: `Task ${id}` }));
    const text = JSON.stringify({ items });
    const parser = new PartialJsonParser();
    let previews = 0;
    let shownAt = 0;
    let widestGap = 0;
    let previous: { items?: unknown[] } | undefined;
    let shared = 0;
    let notShared = 0;
    for (let i = 0; i < text.length; i += 4) {
      const preview = parser.push(text.slice(i, i + 4)) as typeof previous | typeof NO_VALUE;
      if (preview === NO_VALUE) continue;
      previews++;
      widestGap = Math.max(widestGap, i + 4 - shownAt);
      shownAt = Math.min(i + 4, text.length);
      // a complete item is the same object in the next preview: nothing before it is redone
      if (previous?.items !== undefined && previous.items.length > 1) {
        if (previous.items[0] === preview?.items?.[0]) shared++;
        else notShared++;
      }
      previous = preview;
    }
    expect(shownAt).toBe(text.length);
    // a preview copies the open array (up to 2,000 items): it waits for 2,000 / 8 characters
    expect(widestGap).toBeLessThanOrEqual(items.length / 8 + 16);
    expect(previews).toBeGreaterThan(1000);
    expect(shared).toBeGreaterThan(previews * 0.9);
    expect(notShared).toBe(0);
    expect(previous).toEqual({ items });
  });

  it('leaves an earlier preview as it was while the value grows', () => {
    const parser = new PartialJsonParser();
    const first = parser.push('{"list": [{"a": 1}, {"b": "x');
    expect(first).toEqual({ list: [{ a: 1 }, { b: 'x' }] });
    parser.push('yz"}, 3], "more": {"c": [true');
    expect(first).toEqual({ list: [{ a: 1 }, { b: 'x' }] });
    expect(parser.push(']}}')).toEqual({ list: [{ a: 1 }, { b: 'xyz' }, 3], more: { c: [true] } });
  });

  it('decodes escapes split anywhere, surrogate pairs included, and never shows half of one', () => {
    const expected = { s: 'aé 😀 " \\ \n / end', k1: 'v' };
    const text = JSON.stringify(expected)
      .replace('é', '\\u00e9')
      .replace('😀', '\\ud83d\\ude00')
      .replace('/', '\\/')
      .replace('k1', 'k\\u0031');
    expect(text).toContain('\\ud83d');
    for (let size = 1; size <= 7; size++) {
      const parser = new PartialJsonParser();
      let last: unknown = NO_VALUE;
      for (let i = 0; i < text.length; i += size) {
        const preview = parser.push(text.slice(i, i + size));
        if (preview === NO_VALUE) continue;
        const s = (preview as { s?: string }).s;
        // a prefix of the decoded string: an escape shows only once it is whole
        if (s !== undefined && !expected.s.startsWith(s)) throw new Error(`size ${size}: ${s}`);
        last = preview;
      }
      expect(last).toEqual(expected);
    }
  });

  it('starts over after reset', () => {
    const parser = new PartialJsonParser();
    parser.push('{"a": "x');
    parser.reset();
    expect(parser.fullText).toBe('');
    expect(parser.push('["y"]')).toEqual(['y']);
  });
});
