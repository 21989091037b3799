import type { ServerResponse } from 'node:http';
import { from, Subscription, type Observable } from 'rxjs';
import { framesToReadableStream } from './frames-to-readable-stream.js';
import type { MaybePromise, ResumableStreamInfo } from './resumable-stream-store.js';
import type { ResolvedSseConnectionOptions } from './sse-connection-options.js';
import { writeFramesToNodeResponse } from './write-frames-to-node-response.js';

/** What the resume adapters need: how the stream is answered (none: 204), and its headers. @internal */
export interface ResumeAnswer {
  readonly plan: MaybePromise<
    { readonly info: ResumableStreamInfo; readonly frames$: Observable<string> } | undefined
  >;
  readonly headers: (info: ResumableStreamInfo | undefined) => Record<string, string>;
  readonly connection: ResolvedSseConnectionOptions;
}

/** Whether a value is a promise-like (an asynchronous store's answer). @internal */
export function isPromiseLike<T>(value: MaybePromise<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/**
 * Answers a resume on a Node response: 204 when there is no such stream, else the frames. A
 * store (or a restorer) that fails to answer gets 503.
 * @internal
 */
export function resumeToNodeResponse(answer: ResumeAnswer, res: ServerResponse): Subscription {
  const subscription = new Subscription();
  const reply = (plan: Awaited<ResumeAnswer['plan']>): void => {
    if (res.destroyed) return;
    if (plan === undefined) {
      res.writeHead(204, answer.headers(undefined)).end();
      return;
    }
    subscription.add(
      writeFramesToNodeResponse(plan.frames$, res, {
        status: 200,
        headers: answer.headers(plan.info),
        ...answer.connection,
      }),
    );
  };
  const { plan } = answer;
  if (!isPromiseLike(plan)) {
    reply(plan);
    return subscription;
  }
  subscription.add(
    from(plan).subscribe({
      next: reply,
      error: () => {
        if (!res.headersSent && !res.destroyed) res.writeHead(503).end();
      },
    }),
  );
  res.once('close', () => subscription.unsubscribe());
  return subscription;
}

/**
 * Answers a resume with a fetch `Response`: 204 when there is no such stream, else the
 * frames. A store that fails to answer gets 503.
 * @internal
 */
export async function resumeToWebResponse(answer: ResumeAnswer): Promise<Response> {
  let plan: Awaited<ResumeAnswer['plan']>;
  try {
    plan = await answer.plan;
  } catch {
    return new Response(null, { status: 503 });
  }
  if (plan === undefined)
    return new Response(null, { status: 204, headers: answer.headers(undefined) });
  return new Response(framesToReadableStream(plan.frames$, answer.connection), {
    status: 200,
    headers: answer.headers(plan.info),
  });
}
