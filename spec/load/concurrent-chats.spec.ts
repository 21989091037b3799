// 200 concurrent chats, each with a tool round, through ONE ChatClient against a loopback
// OpenAI-compatible server (the real OpenAI SDK over HTTP): every chat gets exactly its
// own answer (none lost, none duplicated, none crossed), the server sees exactly two model
// calls per chat, and the heap returns to its baseline afterwards (issue 30, point 13).
// No timing is asserted. The full size, 2,000 chats, is bench/concurrent-chats.ts.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startLoopbackOpenAi, type LoopbackOpenAi } from './loopback-openai-server';
import { runConcurrentChats } from './concurrent-chats';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function settledHeap(): number {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

describe('concurrent chats through one ChatClient', () => {
  let server: LoopbackOpenAi;
  beforeAll(async () => {
    server = await startLoopbackOpenAi();
  });
  afterAll(async () => {
    await server.close();
  });

  it('200 chats: each gets its own answer, once; two model calls each; the heap comes back', async () => {
    // Warm up (module loading, SDK and JIT caches belong to the baseline, not to the chats).
    await runConcurrentChats(server, 20);
    const before = server.requests();
    const baseline = settledHeap();

    const outcomes = await runConcurrentChats(server, 200);

    expect(outcomes).toHaveLength(200);
    const chats = outcomes.map((outcome) => outcome.chat);
    expect(new Set(chats).size).toBe(200);
    for (const { chat, text } of outcomes) {
      expect(text).toBe(`answer: tool saw ${chat}`);
    }
    expect(server.requests() - before).toBe(400);

    outcomes.length = 0;
    const grown = settledHeap() - baseline;
    // 200 chats kept alive would hold far more than this (requests, responses, SDK streams).
    expect(grown).toBeLessThan(8 * 1024 * 1024);
  }, 120_000);
});
