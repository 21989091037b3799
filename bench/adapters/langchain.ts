import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { RunnablePassthrough, RunnableSequence, type Runnable } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { TOOL_NAME } from '../harness/chunks.js';
import type { BenchAdapter, Gate, TextFixture } from '../harness/types.js';
import { asyncNoop, asyncNoopArgs } from './w2-async-tool.js';

/** One scripted model call: text deltas, or one tool call. */
type Round = { kind: 'text'; fixture: TextFixture } | { kind: 'tool'; id: string };

interface BenchLangChainModelFields {
  script: (call: number) => Round;
  park?: { after: number; gate: Gate };
}

/**
 * A LangChain chat model that streams a precomputed answer like a provider integration
 * does: one `ChatGenerationChunk` per delta, `handleLLMNewToken` per chunk, usage last.
 */
class BenchLangChainModel extends BaseChatModel {
  private calls = 0;

  constructor(private readonly fields: BenchLangChainModelFields) {
    super({});
  }

  _llmType(): string {
    return 'bench';
  }

  _generate(): Promise<ChatResult> {
    return Promise.reject(new Error('BenchLangChainModel only streams'));
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const round = this.fields.script(++this.calls);
    const park = this.fields.park;
    if (round.kind === 'tool') {
      yield new ChatGenerationChunk({
        message: new AIMessageChunk({
          content: '',
          tool_call_chunks: [
            { type: 'tool_call_chunk', id: round.id, name: TOOL_NAME, args: '{}', index: 0 },
          ],
        }),
        text: '',
      });
    } else {
      const { deltas } = round.fixture;
      for (let i = 0; i < deltas.length; i++) {
        if (park !== undefined && i === park.after) {
          park.gate.arrive();
          await park.gate.opened;
        }
        const text = deltas[i];
        const chunk = new ChatGenerationChunk({
          message: new AIMessageChunk({ content: text }),
          text,
        });
        yield chunk;
        await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, {
          chunk,
        });
      }
    }
    // Typed `undefined` under exactOptionalPropertyTypes; set as a provider integration would.
    const usage = Object.assign(new AIMessageChunk({ content: '' }), {
      usage_metadata: { input_tokens: 12, output_tokens: 34, total_tokens: 46 },
    });
    yield new ChatGenerationChunk({ message: usage, text: '' });
  }
}

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<string> {
  let text = '';
  for await (const chunk of stream) if (typeof chunk.content === 'string') text += chunk.content;
  return text;
}

const runnables = new Map<string, Runnable<BaseMessage[], AIMessageChunk>>();

function textRunnable(
  fixture: TextFixture,
  advisors: number,
): Runnable<BaseMessage[], AIMessageChunk> {
  const key = `${fixture.deltas.length}:${fixture.text.length}:${advisors}`;
  let runnable = runnables.get(key);
  if (runnable === undefined) {
    const model = new BenchLangChainModel({ script: () => ({ kind: 'text', fixture }) });
    runnable =
      advisors === 0
        ? model
        : RunnableSequence.from([
            model,
            ...Array.from({ length: advisors }, () => new RunnablePassthrough()),
          ] as never);
    runnables.set(key, runnable);
  }
  return runnable;
}

const noopTool = tool(() => 'ok', {
  name: TOOL_NAME,
  description: 'Does nothing',
  schema: { type: 'object', properties: {} },
});

/** The asynchronous tool of W2 (`tool: 'async'`): zod arguments, a Promise result. */
const asyncNoopTool = tool(asyncNoop, {
  name: TOOL_NAME,
  description: 'Does nothing',
  schema: asyncNoopArgs,
});

const parkedModels = new WeakMap<Gate, BenchLangChainModel>();

/** LangChain: `@langchain/core` chat model streaming, no agent package. */
export const langchainAdapter: BenchAdapter = {
  framework: 'langchain',
  passThroughLabel: 'RunnableSequence: model → 5 × RunnablePassthrough',
  toolLoopLabel: 'manual loop: model.stream + concat + tool.invoke (@langchain/core has no agent)',

  async stream(fixture, advisors) {
    return collect(await textRunnable(fixture, advisors).stream([new HumanMessage('Hi')]));
  },

  async toolLoop(rounds, fixture, kind = 'sync') {
    const model = new BenchLangChainModel({
      script: (call) =>
        call <= rounds ? { kind: 'tool', id: `call_${call}` } : { kind: 'text', fixture },
    });
    const messages: BaseMessage[] = [new HumanMessage('Hi')];
    let text = '';
    for (;;) {
      let gathered: AIMessageChunk | undefined;
      for await (const chunk of await model.stream(messages)) {
        gathered = gathered === undefined ? chunk : gathered.concat(chunk);
        if (typeof chunk.content === 'string') text += chunk.content;
      }
      if (gathered === undefined) throw new Error('langchain W2: empty round');
      messages.push(gathered);
      const calls = gathered.tool_calls ?? [];
      if (calls.length === 0) return text;
      for (const call of calls) {
        const input = { ...call, type: 'tool_call' as const };
        messages.push(
          kind === 'sync' ? await noopTool.invoke(input) : await asyncNoopTool.invoke(input),
        );
      }
    }
  },

  async parked(fixture, parkAt, gate) {
    let model = parkedModels.get(gate);
    if (model === undefined) {
      model = new BenchLangChainModel({
        script: () => ({ kind: 'text', fixture }),
        park: { after: parkAt, gate },
      });
      parkedModels.set(gate, model);
    }
    return collect(await model.stream([new HumanMessage('Hi')]));
  },

  async firstChunk(fixture) {
    const runnable = textRunnable(fixture, 0);
    let first = -1;
    let text = '';
    const start = performance.now();
    for await (const chunk of await runnable.stream([new HumanMessage('Hi')])) {
      if (typeof chunk.content === 'string' && chunk.content !== '') {
        if (first < 0) first = performance.now();
        text += chunk.content;
      }
    }
    if (text !== fixture.text) throw new Error('langchain W4 text mismatch');
    return (first - start) * 1000;
  },
};
