// How a suite that cannot run here says so: its title carries `[skipped: <reason>]`, and
// the closing summary (spec/support/skip-summary-reporter.cjs) groups skipped tests by that
// reason and counts them. Under CI=true a requirement that is missing is not a skip: the
// suite runs and fails, saying what is missing (and the reporter fails any skip that remains).

/** The text a skipped suite's title ends with; the reporter reads the reason back from it. */
export const SKIP_MARKER = '[skipped: ';

/** Something a suite needs (a browser, a server): whether it is here, and why not. */
export interface Requirement {
  readonly available: boolean;
  readonly reason: string;
}

/** Whether this run is CI (`CI=true` or `CI=1`), where nothing may be skipped. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['CI'] === 'true' || env['CI'] === '1';
}

/** A title that tells the summary why the tests under it were skipped. */
export function skippedTitle(title: string, reason: string): string {
  return `${title} ${SKIP_MARKER}${reason}]`;
}

/**
 * `describe` when the requirement is met; otherwise `describe.skip` under a title that
 * carries the reason, so the closing summary line can count the skip and say why.
 */
export function describeWhen(requirement: Requirement): (title: string, body: () => void) => void {
  if (requirement.available) return (title, body) => describe(title, body);
  return (title, body) => describe.skip(skippedTitle(title, requirement.reason), body);
}

/** `it` when the requirement is met; otherwise `it.skip` under a title with the reason. */
export function itWhen(
  requirement: Requirement,
): (title: string, body: () => Promise<void>, timeout?: number) => void {
  if (requirement.available) return (title, body, timeout) => it(title, body, timeout);
  return (title, body, timeout) => it.skip(skippedTitle(title, requirement.reason), body, timeout);
}
