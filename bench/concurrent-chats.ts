// The full size of spec/load/concurrent-chats.spec.ts: 2,000 concurrent chats, each with
// a tool round, through ONE ChatClient against a loopback OpenAI-compatible server.
// Prints the answers' check (lost, duplicated, crossed), the model calls, the wall time
// and the heap before and after. Not part of `npm test`.
//   npm run bench:chats            (2,000 chats)
//   npm run bench:chats -- 5000    (another size)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runConcurrentChats } from '../spec/load/concurrent-chats';
import { startLoopbackOpenAi } from '../spec/load/loopback-openai-server';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = (): number => {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
};
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 2000);
  const server = await startLoopbackOpenAi();
  try {
    await runConcurrentChats(server, 20);
    const calls = server.requests();
    const baseline = heap();
    const started = performance.now();
    const outcomes = await runConcurrentChats(server, count);
    const elapsed = performance.now() - started;
    const peak = process.memoryUsage().heapUsed;
    const chats = new Set(outcomes.map((o) => o.chat));
    const crossed = outcomes.filter((o) => o.text !== `answer: tool saw ${o.chat}`).length;
    console.log(
      `${count} chats: ${outcomes.length} answers, ${count - chats.size} lost, ` +
        `${outcomes.length - chats.size} duplicated, ${crossed} crossed; ` +
        `${server.requests() - calls} model calls; ${elapsed.toFixed(0)} ms`,
    );
    outcomes.length = 0;
    console.log(
      `heap: baseline ${mib(baseline)}, after the chats (before gc) ${mib(peak)}, after gc ${mib(heap())}`,
    );
    if (chats.size !== count || crossed > 0) process.exitCode = 1;
  } finally {
    await server.close();
  }
}

void main();
