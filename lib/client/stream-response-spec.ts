import { defer, type Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { EntityOptions, EntityType } from '../output/entity-options.js';
import type { InferOutput, OutputSchema } from '../output/output-schema.js';
import { streamEntity, type DeepPartial } from '../output/stream-entity.js';
import type { CallStarter } from './call-response-spec.js';
import { entityCallAdvisors } from './entity-call-advisors.js';
import { TextContent } from './text-content.js';

/**
 * The result side of `prompt(...).stream()`: cold Observables that stream as the model does.
 *
 * @example
 * ```ts
 * client.prompt('Tell me a story').stream().content().subscribe((delta) => process.stdout.write(delta));
 * ```
 */
export class StreamResponseSpec {
  /** @internal */
  constructor(private readonly call: CallStarter) {}

  /**
   * Every chunk that leaves the outermost advisor.
   * @returns A cold Observable of chunks ending with `finish`.
   */
  chunks(): Observable<ChatChunk> {
    return defer(() => this.call.start());
  }

  /**
   * The text deltas only.
   * @returns A cold Observable of strings.
   */
  content(): Observable<string> {
    // One hand-written subscriber instead of filter + map (two operator subscribers, two
    // calls per chunk): about 22 ns against 31 ns per chunk (docs/architecture.md). This is
    // every streaming UI's hot path; the error and teardown paths are RxJS's own. The
    // Observable starts the call itself, as `defer` would, one subscription fewer to the
    // first chunk (see `TextContent`).
    return new TextContent(this.call);
  }

  /**
   * The entity as it streams in: partial objects as the JSON grows, then the validated
   * entity (an `EntityParseError` when the final answer does not match). With
   * `{ validate: true }` a `StructuredOutputValidationAdvisor` joins this call; when an
   * attempt fails, partials start over with the next attempt.
   * @example
   * ```ts partial
   * client.prompt('Invent a person').stream().entity(Person, { validate: true })
   *   .subscribe((partial) => render(partial)); // the last value is the complete entity
   * ```
   * @param schema A JSON Schema or a zod v4 schema.
   * @param options `validate`: add the validation advisor for this call.
   * @returns A cold Observable of partial entities; the last value is complete and valid.
   */
  entity<T = never, S extends OutputSchema = OutputSchema>(
    schema: S,
    options: EntityOptions = {},
  ): Observable<DeepPartial<EntityType<T, InferOutput<S>>>> {
    const extra = entityCallAdvisors(schema, options);
    return defer(() => this.call.start(extra)).pipe(streamEntity(schema, options)) as Observable<
      DeepPartial<EntityType<T, InferOutput<S>>>
    >;
  }
}
