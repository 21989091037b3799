import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the recorded provider streams live (read-only). */
export const FIXTURES_DIR = '/work/shared/fixtures';

/** The fixture files of one folder, for `describe.each`. */
export type FixtureFolder = 'anthropic' | 'openai-chat' | 'openai-responses';

function readLines(folder: FixtureFolder, file: string): string[] {
  return readFileSync(join(FIXTURES_DIR, folder, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * A fixture as the SSE body a provider would serve, following the fixtures README:
 * `.sse` files as they are; `.chunks.txt` lines as `data:` frames, with `event: <type>`
 * first for Anthropic and a final `data: [DONE]` for Chat Completions.
 * @param folder The fixture folder.
 * @param file The file name.
 * @returns The SSE body.
 */
export function sseBody(folder: FixtureFolder, file: string): string {
  if (file.endsWith('.sse')) return readFileSync(join(FIXTURES_DIR, folder, file), 'utf8');
  return framesFromLines(folder, readLines(folder, file));
}

/**
 * Builds an SSE body from JSON payload lines, with the same rules as {@link sseBody}.
 * @param folder Which provider's framing to use.
 * @param lines One JSON payload per entry.
 * @returns The SSE body.
 */
export function framesFromLines(folder: FixtureFolder, lines: readonly string[]): string {
  let body = '';
  for (const line of lines) {
    if (folder === 'anthropic') {
      const type = (JSON.parse(line) as { type: string }).type;
      body += `event: ${type}\n`;
    }
    body += `data: ${line}\n\n`;
  }
  if (folder === 'openai-chat') body += 'data: [DONE]\n\n';
  return body;
}

/**
 * The Responses API fixture split into one SSE body per model call: a file that holds
 * several calls (each starting with `response.created`) gives several bodies.
 * @param file A file in `openai-responses/`.
 * @returns One SSE body per recorded call.
 */
export function responsesRounds(file: string): string[] {
  const rounds: string[][] = [];
  for (const line of readLines('openai-responses', file)) {
    const type = (JSON.parse(line) as { type: string }).type;
    if (type === 'response.created' || rounds.length === 0) rounds.push([]);
    rounds[rounds.length - 1].push(line);
  }
  return rounds.map((lines) => framesFromLines('openai-responses', lines));
}
