import { rxAdvisorsEntity, type W6Adapter } from '../adapters/w6-streamed-object.js';
import { W6_SCHEMA } from './w6-object-fixture.js';

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
  stream: (fixture) => rxAdvisorsEntity(fixture, inlineSchema()),
};
