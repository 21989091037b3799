// The README gives no hand-measured figures (package counts, suite and test counts,
// timings): they went stale with every change (issue 30, point 6). Counts come from the
// tools themselves (`npm ci`, Jest's closing Summary line).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

describe('README.md', () => {
  it('states no package, suite or test counts and no measured durations', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const figures = readme.match(/\b\d[\d,.]*\s*(packages|suites|tests)\b|\b\d+(\.\d+)? s\b/g);
    expect(figures).toBeNull();
  });

  it('tells TypeScript 6/7 users to add "types": ["node"] (their default is [])', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain('**TypeScript 6 and 7**');
    expect(readme).toContain('`"types": ["node"]`');
  });
});
