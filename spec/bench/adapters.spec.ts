import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { aiSdkAdapter } from '../../bench/adapters/ai-sdk';
import { floorAsyncGenAdapter } from '../../bench/adapters/floor-asyncgen';
import { floorRxjsAdapter } from '../../bench/adapters/floor-rxjs';
import { rxAdvisorsAdapter } from '../../bench/adapters/rx-advisors';
import { asyncNoopRuns } from '../../bench/adapters/w2-async-tool';
import { w5Adapter, w5Floors } from '../../bench/adapters/w5-full-chain';
import { createGate, jsonFixture, textFixture } from '../../bench/harness/fixtures';
import type { BenchAdapter } from '../../bench/harness/types';
import { skippedTitle } from '../support/skip-marker';

// Not a benchmark: every bench adapter runs once on a small size and must produce the
// expected text, so a broken adapter fails CI instead of publishing a meaningless number.
// The LangChain adapter needs the bench's own dependencies (bench/package.json), which
// `npm run lint` and `npm run bench` install; after a bare `npm ci` it is listed as a todo.
const langchainInstalled = existsSync(
  join(__dirname, '..', '..', 'bench', 'node_modules', '@langchain', 'core', 'package.json'),
);
const adapters: BenchAdapter[] = [
  rxAdvisorsAdapter,
  aiSdkAdapter,
  ...(langchainInstalled
    ? [
        jest.requireActual<{ langchainAdapter: BenchAdapter }>('../../bench/adapters/langchain')
          .langchainAdapter,
      ]
    : []),
  floorRxjsAdapter,
  floorAsyncGenAdapter,
];

if (!langchainInstalled) {
  it.skip(
    skippedTitle(
      'bench adapter langchain',
      'the bench dependencies are not installed (npm run prelint)',
    ),
    () => undefined,
  );
}

describe.each(adapters.map((adapter) => [adapter.framework, adapter] as const))(
  'bench adapter %s',
  (_name, adapter) => {
    const fixture = textFixture(30);

    it('W1 streams the whole text through 0 and 5 pass-throughs', async () => {
      expect(fixture.text.startsWith('[30]')).toBe(true);
      await expect(adapter.stream(fixture, 0)).resolves.toBe(fixture.text);
      await expect(adapter.stream(fixture, 5)).resolves.toBe(fixture.text);
    });

    it('W2 runs the tool rounds and streams the final text', async () => {
      await expect(adapter.toolLoop(3, fixture)).resolves.toBe(fixture.text);
    });

    it('W2 with the asynchronous zod tool runs it every round and streams the final text', async () => {
      const before = asyncNoopRuns.count;
      await expect(adapter.toolLoop(3, fixture, 'async')).resolves.toBe(fixture.text);
      expect(asyncNoopRuns.count - before).toBe(3);
    });

    it('W3 parks every stream at the gate until it opens', async () => {
      const { gate, parked, open } = createGate(3);
      let finished = 0;
      const texts = [0, 1, 2].map(() =>
        adapter.parked(fixture, 10, gate).then((text) => {
          finished++;
          return text;
        }),
      );
      await parked;
      expect(finished).toBe(0);
      adapter.beforeHeapSnapshot?.(gate);
      open();
      await expect(Promise.all(texts)).resolves.toEqual([fixture.text, fixture.text, fixture.text]);
    });

    it('W4 reports a non-negative time to the first chunk', async () => {
      const micros = await adapter.firstChunk(fixture);
      expect(micros).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(micros)).toBe(true);
    });
  },
);

describe('bench adapters W5 (full default chain)', () => {
  const fixture = jsonFixture(30);

  it.each([w5Adapter, ...w5Floors].map((adapter) => [adapter.framework, adapter] as const))(
    '%s streams a valid JSON answer and runs tool rounds',
    async (_name, adapter) => {
      expect(JSON.parse(fixture.text)).toEqual({ answer: expect.any(String) });
      await expect(adapter.stream(fixture)).resolves.toBe(fixture.text);
      await expect(adapter.toolLoop(3, fixture)).resolves.toBe(fixture.text);
    },
  );
});
