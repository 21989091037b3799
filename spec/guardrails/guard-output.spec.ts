import { from, lastValueFrom, toArray } from 'rxjs';
import type { ChatChunk } from '../../lib/index';
import {
  GuardrailTrippedError,
  wordGuardrail,
  type OutputGuardrail,
} from '../../lib/guardrails/index';
import { guardOutput } from '../../lib/guardrails/guard-output';
import { seededRandom as random } from '../support/seeded-random';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };

/** Runs `pieces` through the guardrails: the text released, and the trip if any. */
async function run(
  guardrails: readonly OutputGuardrail[],
  pieces: readonly string[],
): Promise<{ released: string; trip: GuardrailTrippedError | undefined; chunks: ChatChunk[] }> {
  const chunks: ChatChunk[] = [];
  let trip: GuardrailTrippedError | undefined;
  await new Promise<void>((resolve) => {
    from([...pieces.map(t), FINISH])
      .pipe(guardOutput(guardrails))
      .subscribe({
        next: (chunk) => chunks.push(chunk),
        error: (error: unknown) => {
          if (GuardrailTrippedError.isInstance(error)) trip = error;
          resolve();
        },
        complete: resolve,
      });
  });
  const released = chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');
  return { released, trip, chunks };
}

function randomSplit(next: () => number, text: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = 1 + Math.floor(next() * 7);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}

const words = wordGuardrail({ name: 'words', words: ['secret plan', 'zebra'] });

describe('guardOutput with an incremental check (wordGuardrail)', () => {
  it('trips the same way for every split, before the first character of the word leaves', async () => {
    const next = random(11);
    // the text, and where the first word in it starts
    const cases: [string, number | undefined][] = [
      ['Our secrets plan: the SECRET  PLAN, soon.', 22],
      ['A zebras zebra_ zébra ZEBRA.', 16],
      ['A z\u200Be\u200Bb\u200Br\u200Ba!', 2],
      ['No secret planet, no zebras.', undefined],
    ];
    for (const [text, start] of cases) {
      for (let round = 0; round < 60; round++) {
        const pieces = round === 0 ? [text] : round === 1 ? [...text] : randomSplit(next, text);
        const { released, trip } = await run([words], pieces);
        expect([pieces, trip?.guardrail]).toEqual([
          pieces,
          start === undefined ? undefined : 'words',
        ]);
        if (start === undefined) expect(released).toBe(text);
        else expect([pieces, released]).toEqual([pieces, text.slice(0, released.length)]);
        if (start !== undefined) expect(released.length).toBeLessThanOrEqual(start);
      }
    }
  });

  it('catches a word with invisible characters inside, longer than the longest word', async () => {
    // 'zebra' is 5 characters; spelled with zero-width spaces it is 9.
    const pieces = [...'I say z\u200Be\u200Bb\u200Br\u200Ba now'];
    const { released, trip } = await run([words], pieces);
    expect(trip?.guardrail).toBe('words');
    expect(released).toBe('I say ');
  });

  it('passes a chunk itself when no word is in progress, and holds only a word in progress', async () => {
    const chunk = t('hello world ');
    const chunks = await lastValueFrom(
      from([chunk, t('a sec'), t('ond.'), FINISH]).pipe(guardOutput([words]), toArray()),
    );
    expect(chunks[0]).toBe(chunk);
    expect(chunks.slice(1)).toEqual([t('a '), t('second.'), FINISH]);
  });

  it('keeps a windowed guardrail working beside an incremental one', async () => {
    const noHash: OutputGuardrail = {
      name: 'no-hash',
      holdBack: 0,
      checkOutput: (text) => (text.includes('#') ? { tripped: true } : undefined),
    };
    expect((await run([words, noHash], ['a zeb', 'ra-less text'])).trip?.guardrail).toBe('words');
    expect((await run([words, noHash], ['a ze', 'b#ra'])).trip?.guardrail).toBe('no-hash');
    expect((await run([words, noHash], ['fine', ' text'])).released).toBe('fine text');
  });
});
