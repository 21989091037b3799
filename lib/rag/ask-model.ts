import { map, type Observable } from 'rxjs';
import type { ChatClient } from '../client/chat-client.js';
import { Rules } from '../core/validate-options.js';
import type { Query } from './query.js';
import type { RagStageContext } from './rag-stage-context.js';

/**
 * One stage call to the stage's `ChatClient`: the prompt as the user message, the answer
 * trimmed, its usage reported to the call's total. Cold; unsubscribing aborts the model call.
 * @internal
 * @param chatClient The client the user gave the stage.
 * @param prompt The filled prompt template.
 * @param stage Where the usage goes.
 * @returns One answer text.
 */
export function askModel(
  chatClient: ChatClient,
  prompt: string,
  stage: RagStageContext,
): Observable<string> {
  return chatClient
    .prompt(prompt)
    .call()
    .chatResponse()
    .pipe(
      map((response) => {
        stage.addUsage(response.usage);
        return response.text.trim();
      }),
    );
}

/**
 * A query stage's model call: asks `prompt` and answers `query` with the model's text as its
 * text, or `query` itself when the answer is blank (the rewrite, translation and compression
 * transformers).
 * @internal
 * @param chatClient The client the user gave the stage.
 * @param prompt The filled prompt template.
 * @param query The query the answer replaces the text of.
 * @param stage Where the usage goes.
 * @returns One query.
 */
export function askForQuery(
  chatClient: ChatClient,
  prompt: string,
  query: Query,
  stage: RagStageContext,
): Observable<Query> {
  return askModel(chatClient, prompt, stage).pipe(
    map((text) => (text === '' ? query : { ...query, text })),
  );
}

/** The `chatClient` option's rule, shared by the stages that call a model. @internal */
export const CHAT_CLIENT_RULE = Rules.required(
  Rules.custom(
    'a ChatClient (ChatClient.create(model) or ChatClient.builder(model).build())',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { prompt?: unknown }).prompt === 'function',
  ),
);
