import type { TextFixture } from '../harness/types.js';

/** A JSON answer of a given size, streamed as 4-character deltas (W6). */
export interface ObjectFixture extends TextFixture {
  /** The size asked for, in KB (the text is at least that long). */
  readonly kb: number;
  /** What the text parses to: every adapter's final value must equal it. */
  readonly value: W6Answer;
}

/** The shape of the W6 answer: a summary and a list of tasks, as a model would write. */
export interface W6Answer {
  summary: string;
  items: { id: number; title: string; done: boolean; tags: string[]; note: string }[];
}

/** The JSON Schema of {@link W6Answer}: our entity schema and the AI SDK's output schema. */
export const W6_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          title: { type: 'string' },
          done: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
          note: { type: 'string' },
        },
        required: ['id', 'title', 'done', 'tags', 'note'],
        additionalProperties: false,
      },
    },
  },
  required: ['summary', 'items'],
  additionalProperties: false,
} as const;

const TAGS = ['alpha', 'beta', 'gamma', 'delta'];
const NOTE = 'Check the figures with the team, then file the report (see "Q3").';

/** Delta length: 4 characters, as in W1. */
export const W6_DELTA = 4;

/**
 * A compact JSON answer of at least `kb` KB (strings with escapes, numbers, booleans,
 * nested arrays), cut into 4-character deltas.
 * @param kb The size in KB (1,024 characters).
 * @returns The fixture.
 */
export function objectFixture(kb: number): ObjectFixture {
  const value: W6Answer = { summary: `Plan of ${kb} KB: tasks by priority.`, items: [] };
  let text = JSON.stringify(value);
  for (let id = 0; text.length < kb * 1024; id++) {
    value.items.push({
      id,
      title: `Task ${id}: review part ${id % 7}`,
      done: id % 3 === 0,
      tags: TAGS.slice(0, 1 + (id % TAGS.length)),
      note: NOTE,
    });
    text = JSON.stringify(value);
  }
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += W6_DELTA) deltas.push(text.slice(i, i + W6_DELTA));
  return { kb, value, text, deltas };
}
