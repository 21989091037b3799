import {
  defer,
  from,
  isObservable,
  last,
  Observable,
  of,
  throwError,
  Subscriber,
  type Subscription,
} from 'rxjs';
import { ContextKeys } from '../advisor-api/context-keys.js';
import { LOOP_ANSWER_KEY, LoopAnswer } from '../advisor-api/loop-answer.js';
import { callDepth } from '../advisor-api/parent-call.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { Tool, ToolContext } from '../core/tool.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { AgentCycleError } from '../errors/agent-cycle-error.js';
import { AgentDepthError } from '../errors/agent-depth-error.js';
import { AgentRunError } from '../errors/agent-run-error.js';
import { failingRun } from '../errors/fails-run.js';
import { NestedChunk } from '../tools/nested-chunk.js';
import { tool } from '../tools/tool-fn.js';
import { AGENT_FRAME_KEY, agentPathOf, isRunningIn, type AgentFrame } from './agent-frame.js';
import { AgentResponse } from './agent-response.js';
import {
  AGENT_TOOL_DEFAULTS,
  AGENT_TOOL_RULES,
  TASK_PARAMETERS,
  type AgentToolOptions,
} from './agent-tool-options.js';

/**
 * A `ChatClient` (with its own advisors, tools, memory and model) as a tool another
 * client's model can call: agents composed of agents. The nested call is linked to the
 * calling one (`ContextKeys.PARENT_CALL`), so the parent's inherited interceptors
 * (budgets, telemetry) apply to it; its usage is added to the parent's; its chunks reach
 * the parent's stream as preliminary tool results (with the parent loop's
 * `emitToolEvents`), each tagged with the path of agents (read them with `agentChunkOf`);
 * the parent model sees only its final text, or what `output` makes of the response.
 * Unsubscribing the parent unsubscribes the nested call: its HTTP request is aborted and
 * its running tools' signals fire. An agent runs at most `maxDepth` levels deep
 * (`AgentDepthError`) and never inside itself (`AgentCycleError`); its failures are error
 * results the parent model reads, or the parent's failure with `onError: 'throw'`.
 *
 * ```
 * child chunks:   --a--b--u--f|          u: usage (reported to the parent); f: finish
 * tool values:    --A--B--U--F(r|)       A…F: progress (agent path + chunk); r: the answer
 * ```
 *
 * @example
 * ```ts
 * import { agentTool, ChatClient, ToolCallingAdvisor } from 'rx-advisors';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const researcher = ChatClient.create(MockChatModel.script([{ text: 'Paris has 2.1M people.' }]));
 * const research = agentTool({
 *   client: researcher,
 *   name: 'research',
 *   description: 'Researches a question and answers in one paragraph',
 * });
 * const planner = ChatClient.builder(
 *   MockChatModel.script([
 *     { toolCalls: [{ name: 'research', arguments: { task: 'Population of Paris?' } }] },
 *     { text: 'About 2.1 million.' },
 *   ]),
 * )
 *   .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
 *   .defaultTools(research)
 *   .build();
 * planner.prompt('How many people live in Paris?').stream().chunks().subscribe(console.log);
 * ```
 * @param options The client, the tool's name and description; optionally its parameters,
 *   how the nested prompt is built, what the parent model sees, the depth limit, the error
 *   policy and a time limit.
 * @returns A tool for `defaultTools(...)`, `prompt().tools(...)` or a `ToolRegistry`.
 */
export function agentTool<TArgs = { task: string }>(options: AgentToolOptions<TArgs>): Tool<TArgs> {
  const resolved = withDefaults(
    AGENT_TOOL_DEFAULTS,
    validateOptions(options as AgentToolOptions<unknown>, AGENT_TOOL_RULES),
  );
  const { client, name, description, maxDepth, onError, timeout, output } = resolved;
  const prompt =
    options.prompt ?? ((args: TArgs) => client.prompt((args as { task: string }).task));
  // Its calls name it from now on, top-level ones included: a cycle through them is
  // refused at the first call back into it.
  client.runsAsAgent();
  const fail = (error: Error): Error => (onError === 'throw' ? failingRun(error) : error);

  const execute = (args: TArgs, context: ToolContext): Observable<NestedChunk | string> =>
    defer(() => {
      const parent = context.callContext;
      const path = [...(parent === undefined ? [] : agentPathOf(parent)), name];
      if (parent !== undefined && isRunningIn(parent, client)) {
        return throwError(() => fail(new AgentCycleError({ agentName: name, path })));
      }
      const depth = parent === undefined ? 1 : callDepth(parent) + 1;
      if (depth > maxDepth) {
        return throwError(() =>
          fail(new AgentDepthError({ agentName: name, path, depth, maxDepth })),
        );
      }
      const frame: AgentFrame = { name, path, identity: client };
      const params: Record<string, unknown> = { [AGENT_FRAME_KEY]: frame };
      if (parent !== undefined) params[ContextKeys.PARENT_CALL] = parent;
      // The answer is the text alone: the child's loop may keep it (this subscription's).
      const slot = output === undefined ? new LoopAnswer() : undefined;
      if (slot !== undefined) params[LOOP_ANSWER_KEY] = slot;
      const chunks$ = prompt(args, context).advisorParams(params).stream().chunks();
      return nestedRun(chunks$, path, context, output, slot, (cause) =>
        fail(new AgentRunError({ agentName: name, path, cause })),
      );
    });

  // The nested chunks are never converted (the tool path sends them as they are); the
  // answer is text.
  return tool<TArgs, NestedChunk | string>({
    name,
    description,
    parameters: (options.parameters ?? TASK_PARAMETERS) as never,
    execute,
    ...(timeout === undefined ? {} : { timeout }),
  });
}

/**
 * The nested call's chunks as the tool's values, then its answer: each chunk is added to
 * the response, its usage reported to the parent, and it goes on as a `NestedChunk` (an
 * agent's further down as it is: its path is whole). One subscriber for it all (this is the
 * hot path of every nested chunk: no operator chain, one object per chunk, no string per
 * text delta: `AgentResponse`); a failure of the run, of `output` or of the per-chunk work
 * is `failed(cause)`.
 */
function nestedRun(
  chunks$: Observable<ChatChunk>,
  path: readonly string[],
  context: ToolContext,
  output: AgentToolOptions<unknown>['output'],
  slot: LoopAnswer | undefined,
  failed: (cause: unknown) => Error,
): Observable<NestedChunk | string> {
  return new Observable<NestedChunk | string>((subscriber) => {
    const { reportUsage } = context;
    const run = new NestedRunSubscriber(subscriber, path, reportUsage, output, slot, failed);
    chunks$.subscribe(run);
    return () => run.stop();
  });
}

/**
 * `nestedRun`'s subscriber to the nested call: the per-chunk work in its own `next` (a
 * `Subscriber` subclass RxJS subscribes with as it is, as `DirectSubscriber`, without the
 * observer object between: one call per nested chunk, its state in fields rather than a
 * closure's context). Contract as `DirectSubscriber`'s: `next` never throws.
 */
class NestedRunSubscriber extends Subscriber<ChatChunk> {
  private readonly response = new AgentResponse();
  private answer: Subscription | undefined;

  constructor(
    private readonly out: Subscriber<NestedChunk | string>,
    private readonly path: readonly string[],
    private readonly reportUsage: ToolContext['reportUsage'],
    private readonly output: AgentToolOptions<unknown>['output'],
    /** Where the child's loop keeps the answer, when it is the head of the child's chain. */
    private readonly slot: LoopAnswer | undefined,
    private readonly failed: (cause: unknown) => Error,
  ) {
    super();
  }

  override next(chunk: ChatChunk): void {
    const { out, slot } = this;
    if (this.isStopped || out.closed) return;
    try {
      // The loop claimed the slot when it subscribed, before any chunk: it keeps the text.
      if (slot === undefined || !slot.claimed) this.response.add(chunk);
      if (chunk.type === 'usage') this.reportUsage?.(chunk.usage);
    } catch (cause) {
      this.fail(cause);
      return;
    }
    out.next(nestedChunkOf(chunk, this.path));
  }

  protected override _error(cause: unknown): void {
    this.fail(cause);
    this.unsubscribe();
  }

  protected override _complete(): void {
    let answer$: Observable<string>;
    try {
      const { slot } = this;
      answer$ =
        slot !== undefined && slot.claimed
          ? of(slot.text)
          : answerOf(this.response.build(), this.output);
    } catch (cause) {
      this.fail(cause);
      this.unsubscribe();
      return;
    }
    const { out } = this;
    this.answer = answer$.subscribe({
      next: (text) => out.next(text),
      error: (cause: unknown) => this.fail(cause),
      complete: () => out.complete(),
    });
    // The run is over; the answer stays subscribed until it ends or `stop`.
    this.unsubscribe();
  }

  /** Unsubscribes the run and the answer (the teardown of `nestedRun`'s Observable). */
  stop(): void {
    this.unsubscribe();
    this.answer?.unsubscribe();
  }

  private fail(cause: unknown): void {
    this.out.error(this.failed(cause));
  }
}

/** A chunk of the nested call as a tool value; an agent's further down goes on as it is. */
function nestedChunkOf(chunk: ChatChunk, path: readonly string[]): NestedChunk {
  if (chunk.type !== 'tool-result' || chunk.agentChunk === undefined) {
    return new NestedChunk(path, chunk);
  }
  const nested = chunk.agentChunk;
  return nested instanceof NestedChunk ? nested : new NestedChunk(nested.agentPath, nested.chunk);
}

/** What the parent model sees: the text, or the `output` function's answer. */
function answerOf(
  response: ChatResponse,
  output: AgentToolOptions<unknown>['output'],
): Observable<string> {
  if (output === undefined) return of(response.text);
  const answer = output(response);
  if (typeof answer === 'string') return of(answer);
  return (isObservable(answer) ? answer : from(answer)).pipe(last());
}
