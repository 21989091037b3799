/**
 * The TypeScript examples of a Markdown page that are meant to compile on their own: every
 * ```ts block except those marked partial (```ts partial), as the checker of
 * scripts/check-snippets.mjs reads them.
 * @param markdown The page.
 * @returns Each snippet's code, with `export {}` so each is a module.
 */
export function readmeSnippets(markdown: string): string[] {
  const snippets: string[] = [];
  for (const match of markdown.matchAll(/^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (/\bpartial\b/.test(match[2])) continue;
    snippets.push(`${match[3]}\nexport {};\n`);
  }
  return snippets;
}
