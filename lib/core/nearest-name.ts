/**
 * The known name closest to `name` by edit distance (insertions, deletions, substitutions),
 * when it is close enough to be a slip of the keyboard: at most 2 edits, and fewer than a
 * third of the longer name; case differences alone always count as close.
 * @internal
 * @example
 * ```ts
 * nearestName('maxRound', ['maxRounds', 'order']); // 'maxRounds'
 * nearestName('colour', ['order']); // undefined
 * ```
 * @param name The name that is not known.
 * @param known The names that are.
 * @returns The closest known name, or `undefined` when none is close.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate.toLowerCase() === name.toLowerCase()) return candidate;
    const distance = editDistance(name, candidate);
    const close = distance <= 2 && distance * 3 < Math.max(name.length, candidate.length);
    if (close && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}
