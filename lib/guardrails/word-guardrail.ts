import type { ChatRequest } from '../core/chat-request.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { GuardrailVerdict, InputGuardrail, OutputGuardrail } from './guardrail.js';
import { normalizeForMatching, type MatchNormalization } from './normalize-for-matching.js';
import { WordMatcher } from './word-matcher.js';
import { WordStream } from './word-stream.js';

/**
 * Which messages of a request an input check reads: the last user message, every user
 * message, or every message (system, user, assistant and tool texts).
 * @example
 * ```ts
 * import type { MessageScope } from 'rx-advisors/guardrails';
 * const scope: MessageScope = 'all-user';
 * ```
 */
export type MessageScope = 'last-user' | 'all-user' | 'all-messages';

/**
 * Options of {@link wordGuardrail}.
 * @example
 * ```ts
 * import type { WordGuardrailOptions } from 'rx-advisors/guardrails';
 * const options: WordGuardrailOptions = { words: ['project zebra'], message: 'I cannot discuss that.' };
 * ```
 */
export interface WordGuardrailOptions {
  /** Words or phrases, matched whole after normalization (docs/security.md); linear time. */
  words: readonly string[];
  /** Default `'words'`. */
  name?: string;
  /** What the user is told (default: the advisor's generic refusal). */
  message?: string;
  /** Which request messages the input check reads (default `'all-user'`). */
  scope?: MessageScope;
  /** Whether combining marks are ignored (`café` = `cafe`); default `true`. */
  stripMarks?: boolean;
  /**
   * The least number of characters held back on output (default 0). The stream check holds
   * exactly what a word in progress needs (from the start of the longest partial match,
   * invisible characters inside included, to the character that shows whether it ends);
   * this raises the floor. Without `openStream` (`checkOutput` on a window) the hold-back is
   * this, or the longest word's length.
   */
  holdBack?: number;
}

const isString = (value: unknown): value is string => typeof value === 'string';

const RULES: OptionRules<WordGuardrailOptions> = {
  words: Rules.required(
    Rules.custom(
      'an array of non-empty strings',
      (value) => Array.isArray(value) && value.every((w) => isString(w) && w.trim() !== ''),
    ),
  ),
  name: Rules.nonEmptyString,
  message: Rules.custom('a string', isString),
  scope: Rules.oneOf('last-user', 'all-user', 'all-messages'),
  stripMarks: Rules.boolean,
  holdBack: Rules.integer(0),
};

/**
 * A guardrail that trips on words or phrases, as an input guardrail (the request's
 * messages, by `scope`) and as an output guardrail (the answer as it streams: a word split
 * across chunks is caught before its first character leaves; a word that is only the start
 * of a longer one, `pass` in `passport`, is not). Words match whole, after normalization
 * (case, compatibility forms, invisible characters, marks), through an Aho–Corasick automaton
 * built once: linear in the text, whatever the number of words. On the stream (`openStream`)
 * each character is normalized and matched once, when it arrives, and only a word in
 * progress is held back.
 *
 * @example
 * ```ts
 * import { GuardrailsAdvisor, wordGuardrail } from 'rx-advisors/guardrails';
 * const codeNames = wordGuardrail({ name: 'code-names', words: ['zebra', 'project falcon'] });
 * new GuardrailsAdvisor({ input: [codeNames], output: [codeNames] });
 * ```
 * @param options The words, name, message, scope, normalization and hold-back.
 * @returns The guardrail.
 * @throws InvalidOptionsError When an option is invalid or a word is empty once normalized.
 */
export function wordGuardrail(
  options: WordGuardrailOptions,
): InputGuardrail & OutputGuardrail & Required<Pick<OutputGuardrail, 'openStream'>> {
  const settings = withDefaults(
    { name: 'words', scope: 'all-user', stripMarks: true },
    validateOptions(options, RULES),
  );
  const normalization: MatchNormalization = { stripMarks: settings.stripMarks };
  const words = settings.words.map((word, index) => {
    const normalized = normalizeForMatching(word, normalization).trim();
    if (normalized === '') {
      throw new InvalidOptionsError({
        option: `words[${index}]`,
        value: word,
        expected: 'a word that is not empty once invisible characters and marks are removed',
      });
    }
    return normalized;
  });
  const matcher = new WordMatcher(words);
  const longest = Math.max(0, ...settings.words.map((word) => word.length));
  const floor = settings.holdBack ?? 0;
  const verdict = (found: string | undefined): GuardrailVerdict | undefined =>
    found === undefined
      ? undefined
      : {
          tripped: true,
          reason: `matched the word ${JSON.stringify(found)}`,
          ...(settings.message === undefined ? {} : { message: settings.message }),
        };
  return {
    name: settings.name,
    holdBack: settings.holdBack ?? longest,
    window: 8,
    checkInput: (request) =>
      verdict(
        textsOf(request, settings.scope)
          .map((text) => matcher.find(normalizeForMatching(text, normalization)))
          .find((found) => found !== undefined),
      ),
    checkOutput: (text, final) =>
      verdict(matcher.find(normalizeForMatching(text, normalization), !final)),
    openStream: () => {
      const stream = new WordStream(matcher.automaton, matcher.words, normalization);
      return {
        write: (text) => verdict(stream.write(text)),
        held: () => Math.max(floor, stream.held()),
        end: () => verdict(stream.end()),
      };
    },
  };
}

/**
 * The texts of a request that a scope reads.
 * @example
 * ```ts
 * // internal: not exported
 * textsOf(request, 'last-user'); // [request.lastUserText]
 * ```
 * @param request The request.
 * @param scope Which messages.
 * @returns Their texts.
 * @internal
 */
export function textsOf(request: ChatRequest, scope: MessageScope): string[] {
  switch (scope) {
    case 'last-user': {
      const text = request.lastUserText;
      return text === undefined ? [] : [text];
    }
    case 'all-user':
      return request.messages.flatMap((m) => (m.role === 'user' ? [m.content] : []));
    case 'all-messages':
      return request.messages.map((m) => m.content);
    default: {
      const never: never = scope;
      return never;
    }
  }
}
