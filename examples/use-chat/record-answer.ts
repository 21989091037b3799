import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { Observable, Subscription } from 'rxjs';

/**
 * The answer a UI message stream builds, read from the stream's own SSE frames (from
 * `ResumableStreams.resume`) with the AI SDK's `readUIMessageStream`: the same parsing
 * `useChat` runs in the page, so what the server keeps for a reload is what the page showed.
 * An answer that was ended early (Stop) gives what had arrived.
 *
 * @example
 * ```ts partial
 * const frames$ = streams.resume({ owner, streamId: chatId });
 * const answer = await recordAnswer(frames$, undefined);
 * ```
 * @param frames$ The answer's frames, from its first event.
 * @param continued The assistant message the answer continues (the one whose approval
 *   requests it answers), or `undefined` for a new message.
 * @returns The assistant message, or `undefined` when the stream had no message.
 */
export async function recordAnswer(
  frames$: Observable<string>,
  continued: UIMessage | undefined,
): Promise<UIMessage | undefined> {
  let subscription: Subscription | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start: (controller) => {
      subscription = frames$.subscribe({
        next: (frames) => {
          try {
            for (const data of eventData(frames)) {
              if (data !== '' && data !== '[DONE]') controller.enqueue(JSON.parse(data));
            }
          } catch (error) {
            controller.error(error); // not our encoder's JSON: record nothing
            subscription?.unsubscribe();
          }
        },
        // A stream ended early (Stop, expiry) keeps what came before.
        error: () => controller.close(),
        complete: () => controller.close(),
      });
    },
    cancel: () => subscription?.unsubscribe(),
  });
  let answer: UIMessage | undefined;
  for await (const message of readUIMessageStream({
    stream,
    ...(continued === undefined ? {} : { message: continued }),
    terminateOnError: false,
    onError: () => undefined, // an `error` part ends the answer; what came before is kept
  })) {
    answer = message;
  }
  return answer;
}

/** The data of each event in some SSE text (the `data:` lines of an event, joined). */
function eventData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n'),
    );
}
