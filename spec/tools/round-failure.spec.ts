import { lastValueFrom, of, toArray } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';

/** A synchronous model: every round is `of(...chunks)`. */
function syncModel(chunks: readonly ChatChunk[]): ChatModel & { calls: number } {
  const model = {
    provider: 'sync',
    calls: 0,
    stream: () => {
      model.calls++;
      return of(...chunks);
    },
  };
  return model;
}

describe('ToolCallingAdvisor: a round that fails', () => {
  it('never runs the round’s tools after the round failed (synchronous model)', async () => {
    const sideEffects: string[] = [];
    const launch = tool({
      name: 'launch',
      description: 'Has a side effect',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        sideEffects.push('launched');
        return 'ok';
      },
    });
    // A chunk the round's assembly rejects (an unknown type) between the call and `finish`.
    const bogus = { type: 'bogus' } as unknown as ChatChunk;
    const model = syncModel([
      { type: 'tool-call', id: 'c1', name: 'launch', arguments: '{}' },
      bogus,
      { type: 'finish', reason: 'tool-calls' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(launch)
      .defaultAdvisors(new ToolCallingAdvisor())
      .build();
    await expect(
      lastValueFrom(client.prompt('go').stream().chunks().pipe(toArray())),
    ).rejects.toThrow(/Unknown chunk type/);
    expect(sideEffects).toEqual([]);
    expect(model.calls).toBe(1);
  });
});
