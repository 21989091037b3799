import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { JsonOutputParser } from '@langchain/core/output_parsers';
import type { Runnable } from '@langchain/core/runnables';
import type { ObjectFixture } from '../workloads/w6-object-fixture.js';
import type { W6Adapter } from './w6-streamed-object.js';

/** A LangChain chat model streaming one precomputed answer, one chunk per delta. */
class W6LangChainModel extends BaseChatModel {
  constructor(private readonly fixture: ObjectFixture) {
    super({});
  }

  _llmType(): string {
    return 'bench-w6';
  }

  _generate(): Promise<ChatResult> {
    return Promise.reject(new Error('W6LangChainModel only streams'));
  }

  override async *_streamResponseChunks(): AsyncGenerator<ChatGenerationChunk> {
    for (const text of this.fixture.deltas) {
      yield new ChatGenerationChunk({ message: new AIMessageChunk({ content: text }), text });
    }
    await Promise.resolve();
  }
}

const chains = new WeakMap<ObjectFixture, Runnable>();

/** LangChain: a streaming chat model piped into `JsonOutputParser` (its `transform`). */
export const w6LangChainAdapter: W6Adapter = {
  framework: 'langchain',
  label: 'model.pipe(new JsonOutputParser()).stream(): partial objects (no schema validation)',
  async stream(fixture) {
    let chain = chains.get(fixture);
    if (chain === undefined) {
      chain = new W6LangChainModel(fixture).pipe(new JsonOutputParser());
      chains.set(fixture, chain);
    }
    let final: unknown;
    let partials = 0;
    for await (const partial of await chain.stream([new HumanMessage('Hi')])) {
      final = partial;
      partials++;
    }
    return { final, partials };
  },
};
