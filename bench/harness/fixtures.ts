import type { Gate, TextFixture } from './types.js';

const WORDS = ['lore', 'm ip', 'sum ', 'dolo', 'r si', 't am', 'et, ', 'cons'];

/**
 * A text of `n` deltas of 4 characters each (the first one says how many there are, so
 * a fixture of another size cannot pass for this one).
 * @param n How many deltas.
 * @returns The fixture.
 */
export function textFixture(n: number): TextFixture {
  const deltas: string[] = [];
  for (let i = 0; i < n; i++) deltas.push(i === 0 ? `[${n}]` : WORDS[i % WORDS.length]);
  return { deltas, text: deltas.join('') };
}

/**
 * A JSON answer `{"answer":"…"}` streamed as `n` deltas of about 4 characters (W5: the
 * structured output advisor validates it).
 * @param n How many deltas.
 * @returns The fixture.
 */
export function jsonFixture(n: number): TextFixture {
  const deltas: string[] = ['{"answer":"'];
  for (let i = 1; i < n - 1; i++) deltas.push(WORDS[i % WORDS.length]);
  deltas.push('"}');
  return { deltas, text: deltas.join('') };
}

/**
 * A gate for `count` streams: `parked` resolves when all arrived; `open()` lets them go.
 * @param count How many streams will arrive.
 * @returns The gate, a promise of all arrivals, and the opener.
 */
export function createGate(count: number): { gate: Gate; parked: Promise<void>; open(): void } {
  let open!: () => void;
  let allParked!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const parked = new Promise<void>((resolve) => (allParked = resolve));
  let arrived = 0;
  return {
    gate: {
      opened,
      arrive: () => {
        if (++arrived === count) allParked();
      },
    },
    parked,
    open,
  };
}
