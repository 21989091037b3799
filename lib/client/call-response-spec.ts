import { defer, map, type Observable, type Subscriber } from 'rxjs';
import type { Advisor } from '../advisor-api/advisor.js';
import { aggregate } from '../core/aggregate.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { EntityOptions, EntityType } from '../output/entity-options.js';
import type { InferOutput, OutputSchema } from '../output/output-schema.js';
import { parseEntity } from '../output/parse-entity.js';
import { entityCallAdvisors } from './entity-call-advisors.js';

/**
 * Starts one subscription of a call (the `PromptSpec`): builds its request and chain now.
 * Call it inside a subscription (`defer`), once per subscription.
 * @internal
 */
export interface CallStarter {
  /**
   * @param extraAdvisors Advisors for this call only.
   * @returns The chain's Observable.
   */
  start(extraAdvisors?: readonly Advisor[]): Observable<ChatChunk>;
  /**
   * `start().subscribe(subscriber)`, with no Observable where the chain needs none.
   * @param subscriber Receives the call's chunks.
   */
  startInto(subscriber: Subscriber<ChatChunk>): void;
}

/**
 * The result side of `prompt(...).call()`: each method returns a cold Observable of one
 * value. `call()` is `stream()` aggregated: one code path.
 *
 * @example
 * ```ts partial
 * client.prompt('Hi').call().content().subscribe((text) => console.log(text));
 * client.prompt('Hi').call().chatResponse().subscribe((r) => console.log(r.usage));
 * client.prompt('A person').call().entity(Person, { validate: true }).subscribe((p) => console.log(p.name));
 * ```
 */
export class CallResponseSpec {
  /** @internal */
  constructor(private readonly call: CallStarter) {}

  /**
   * The whole response.
   * @returns A cold Observable of one `ChatResponse`.
   */
  chatResponse(): Observable<ChatResponse> {
    return defer(() => this.call.start()).pipe(aggregate());
  }

  /**
   * The answer text.
   * @returns A cold Observable of one string.
   */
  content(): Observable<string> {
    return this.chatResponse().pipe(map((response) => response.text));
  }

  /**
   * The answer as an entity: its JSON found (fences and prose allowed), parsed and
   * validated against `schema` (JSON Schema or zod v4). Format instructions carrying the
   * schema go with the call as a system message (as Spring AI's `BeanOutputConverter`
   * does; `instructions: false` turns them off, native structured output needs none).
   * Without `validate`, a bad answer fails with an `EntityParseError`; with
   * `{ validate: true }` (or validation options) a `StructuredOutputValidationAdvisor`
   * joins this call and retries with the errors until an answer passes (else a
   * `StructuredOutputError`).
   * @example
   * ```ts
   * import { z } from 'zod';
   * const Person = z.object({ name: z.string(), age: z.number() });
   * client.prompt('Invent a person').call().entity(Person, { validate: true }); // Observable<{ name: string; age: number }>
   * ```
   * @param schema A JSON Schema or a zod v4 schema; its type flows to the result.
   * @param options `validate`: add the validation advisor for this call; `instructions`.
   * @returns A cold Observable of one entity.
   */
  entity<T = never, S extends OutputSchema = OutputSchema>(
    schema: S,
    options: EntityOptions = {},
  ): Observable<EntityType<T, InferOutput<S>>> {
    const extra = entityCallAdvisors(schema, options);
    return defer(() => this.call.start(extra)).pipe(
      aggregate(),
      parseEntity(schema, options),
    ) as Observable<EntityType<T, InferOutput<S>>>;
  }
}
