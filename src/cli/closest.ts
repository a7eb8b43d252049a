/** The names nearest to a word a person typed: what a message offers in place of a long list. */

/** The `count` names nearest to `word` by edit distance, nearest first, ties in their given order. */
export function closest(names: readonly string[], word: string, count: number): string[] {
  return names
    .map((name) => ({ name, edits: edits(name, word) }))
    .sort((a, b) => a.edits - b.edits)
    .slice(0, count)
    .map(({ name }) => name);
}

/** How many characters inserted, removed or replaced turn `a` into `b` (Levenshtein distance). */
function edits(a: string, b: string): number {
  let above = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let row = 1; row <= a.length; row++) {
    const line = [row];
    for (let column = 1; column <= b.length; column++) {
      const replace = above[column - 1]! + (a[row - 1] === b[column - 1] ? 0 : 1);
      line[column] = Math.min(above[column]! + 1, line[column - 1]! + 1, replace);
    }
    above = line;
  }
  return above[b.length]!;
}
