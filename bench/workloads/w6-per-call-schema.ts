import { ChatClient } from 'rx-advisors';
import type { W6Adapter } from '../adapters/w6-streamed-object.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { textChunks } from '../harness/chunks.js';
import { W6_SCHEMA, type ObjectFixture } from './w6-object-fixture.js';

const clients = new WeakMap<ObjectFixture, ChatClient>();

/**
 * The schema as a request handler writes it: a literal inside the handler, so a new object
 * on every call (what the outside benchmark of issue 32 did). The bench's own row passes
 * one module-level schema object.
 */
function inlineSchema(): typeof W6_SCHEMA {
  return structuredClone(W6_SCHEMA);
}

/** rx-advisors, `stream().entity(schema)` with a new (equal) schema object per call. */
export const w6PerCallSchemaAdapter: W6Adapter = {
  framework: 'rx-advisors',
  label:
    'client.prompt().stream().entity({ …a new JSON Schema object per call }): partials, then the validated entity',
  stream(fixture) {
    let client = clients.get(fixture);
    if (client === undefined) {
      const chunks = textChunks(fixture);
      client = ChatClient.builder(new BenchChatModel({ script: () => chunks })).build();
      clients.set(fixture, client);
    }
    const chat = client;
    return new Promise((resolve, reject) => {
      let final: unknown;
      let partials = 0;
      chat
        .prompt('Hi')
        .stream()
        .entity(inlineSchema())
        .subscribe({
          next: (value) => {
            final = value;
            partials++;
          },
          error: reject,
          complete: () => resolve({ final, partials }),
        });
    });
  },
};
