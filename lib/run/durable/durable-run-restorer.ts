import type { Observable } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import { Rules, validateOptions, type OptionRules } from '../../core/validate-options.js';
import { isRunJournal, type RunJournal } from '../run-journal.js';
import { deliveryUnits } from './delivery.js';

/**
 * The advisor params a restored run is resumed with: spread them into `advisorParams`.
 *
 * @example
 * ```ts partial
 * import type { DurableRunResumeParams } from 'rx-advisors/run';
 * const resume = (params: DurableRunResumeParams) =>
 *   client.prompt().advisorParams({ ...params, conversationId: params.runOwner }).stream().chunks();
 * ```
 */
export interface DurableRunResumeParams {
  /** The run: the stream id the client resumes. */
  readonly runId: string;
  /** Its owner: the resuming request's owner (from your authentication). */
  readonly runOwner: string;
  /** The delivery units the client has, from the cursor of its last event. */
  readonly runDelivered: number;
}

/**
 * Options of {@link durableRunRestorer}.
 *
 * @example
 * ```ts partial
 * import { durableRunRestorer, type DurableRunRestorerOptions } from 'rx-advisors/run';
 * const options: DurableRunRestorerOptions = { journal, resume: (params) => chunksOf(params) };
 * ```
 */
export interface DurableRunRestorerOptions {
  /** The journal the runs are recorded in (the `DurableRunAdvisor`'s). */
  journal: RunJournal;
  /**
   * The resumed run's chunks: a call with the params and no new message (the client's
   * `DurableRunAdvisor` replays what is recorded and goes on live).
   */
  resume: (params: DurableRunResumeParams) => Observable<ChatChunk>;
}

/**
 * A restorer as `ResumableStreams` takes it (`rx-advisors/sse`, option `restore`); the same
 * shape, so this entry point does not depend on the transport.
 *
 * @example
 * ```ts partial
 * import type { DurableRunRestorer } from 'rx-advisors/run';
 * const streams = new ResumableStreams({ restore: restorer satisfies DurableRunRestorer });
 * ```
 */
export interface DurableRunRestorer {
  /** Per stream: the run's delivery units after each chunk, as event-id cursors. */
  eventCursor(): (chunk: ChatChunk) => string;
  /** The rest of the owner's run after the cursor, or `undefined` when the owner has no such run. */
  restore(
    key: { readonly owner: string; readonly streamId: string },
    cursor: string | undefined,
  ): Promise<Observable<ChatChunk> | undefined>;
}

const RULES: OptionRules<DurableRunRestorerOptions> = {
  journal: Rules.required(Rules.custom('a RunJournal (append, read, delete)', isRunJournal)),
  resume: Rules.required(Rules.func),
};

const UNITS = /^\d{1,15}$/;

/** The `run` data chunk a durable run starts every subscription with. */
function announcedFrom(chunk: ChatChunk): number | undefined {
  if (chunk.type !== 'data' || chunk.name !== 'run') return undefined;
  const from = (chunk.data as { from?: unknown } | undefined)?.from;
  return typeof from === 'number' && Number.isInteger(from) && from >= 0 ? from : undefined;
}

/**
 * Lets a browser that reconnects after a server restart get the rest of a durable run:
 * give it to `ResumableStreams` as `restore`, and start every run under its stream id
 * (`advisorParams({ runId: streamId, runOwner: owner })`). Event ids then carry the run's
 * delivery units (`id: <n>.<units>`: text by its length, other chunks by one, what a replay
 * may send differently by none; see docs/durable-runs.md), which do not depend on how the
 * lost process cut the text. A resume that finds no live stream reads the owner's run
 * from the journal (another owner's, or an unknown run: nothing, HTTP 204) and resumes it
 * with `runDelivered` set to the client's units: recorded rounds are replayed without a
 * model call, the rest runs live, and the client gets only what follows its last event.
 *
 * ```
 * first process:   (run)-a-b-c-X            the browser saw a, b (id 3.<units of a b>)
 * after restart:   (run)-c-d-f|              resumed with runDelivered = units of a b
 * ```
 *
 * @example
 * ```ts partial
 * import { durableRunRestorer } from 'rx-advisors/run';
 * import { ResumableStreams } from 'rx-advisors/sse';
 *
 * const streams = new ResumableStreams({
 *   restore: durableRunRestorer({
 *     journal,
 *     resume: (params) => client.prompt().advisorParams({ ...params }).stream().chunks(),
 *   }),
 * });
 * ```
 * @param options The journal and how a run is resumed.
 * @returns The restorer.
 */
export function durableRunRestorer(options: DurableRunRestorerOptions): DurableRunRestorer {
  const { journal, resume } = validateOptions(options, RULES);
  return {
    eventCursor: () => {
      let position = 0;
      return (chunk) => {
        const from = announcedFrom(chunk);
        position = from ?? position + deliveryUnits(chunk);
        return String(position);
      };
    },
    restore: async ({ owner, streamId }, cursor) => {
      if (cursor !== undefined && !UNITS.test(cursor)) return undefined;
      const records = await journal.read({ owner, runId: streamId });
      if (records.length === 0) return undefined;
      const runDelivered = cursor === undefined ? 0 : Number(cursor);
      return resume({ runId: streamId, runOwner: owner, runDelivered });
    },
  };
}
