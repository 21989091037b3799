// A Jest reporter that prints the run's closing line: passed, failed, skipped, and for the
// skipped tests how many per reason (the `[skipped: <reason>]` a suite's title carries, see
// spec/support/skip-marker.ts), so the reason for every skip is in the last line of a long
// log, not only at its top. Under CI=true (or CI=1) any skipped or todo test fails the run
// (getLastError): CI must run everything. Tests left out by `-t` are not counted.
'use strict';

const { writeSync } = require('node:fs');

const MARKER = /\[skipped: (.+)\]$/;
const NO_REASON = 'no reason given (it.skip / it.todo without a [skipped: …] title)';

function isCi(env) {
  return env.CI === 'true' || env.CI === '1';
}

/** Groups the run's skipped and todo tests by reason: Map<reason, { tests, files: Set }>. */
function skipsByReason(results, { countUnmarked }) {
  const groups = new Map();
  for (const file of results.testResults) {
    for (const test of file.testResults) {
      if (test.status !== 'pending' && test.status !== 'todo' && test.status !== 'skipped') {
        continue;
      }
      const titles = [...test.ancestorTitles, test.title];
      const marked = titles.map((title) => MARKER.exec(title)).find((match) => match !== null);
      if (marked === undefined && !countUnmarked) continue;
      const reason = marked === undefined ? NO_REASON : marked[1];
      const group = groups.get(reason) ?? { tests: 0, files: new Set() };
      group.tests += 1;
      group.files.add(file.testFilePath);
      groups.set(reason, group);
    }
  }
  return groups;
}

/** The closing line for a run, and whether it must fail the run. */
function closingLine(results, { ci, countUnmarked }) {
  const groups = skipsByReason(results, { countUnmarked });
  const skipped = [...groups.values()].reduce((sum, group) => sum + group.tests, 0);
  const parts = [
    `${results.numPassedTests} passed`,
    `${results.numFailedTests} failed`,
    `${skipped} skipped`,
  ];
  let line = `Summary: ${parts.join(', ')}`;
  if (skipped > 0) {
    const reasons = [...groups].map(
      ([reason, group]) =>
        `${group.tests} in ${group.files.size} file${group.files.size === 1 ? '' : 's'}: ${reason}`,
    );
    line += ` (${reasons.join('; ')})`;
  }
  const fails = ci && skipped > 0;
  if (fails) line += ' -- FAILED: under CI=true nothing may be skipped';
  return { line, skipped, fails };
}

class SkipSummaryReporter {
  constructor(globalConfig, options = {}) {
    this.globalConfig = globalConfig ?? {};
    this.env = options.env ?? process.env;
    // Jest's own summary is printed after every custom reporter; to be the closing line this
    // one is written when the process exits (synchronously: the process is going away).
    this.write =
      options.write ?? ((text) => process.once('exit', () => writeSync(process.stderr.fd, text)));
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    // With `-t`, the tests it leaves out are "skipped" too; only marked skips count then.
    const countUnmarked = !this.globalConfig.testNamePattern;
    const ci = isCi(this.env);
    const { line, skipped, fails } = closingLine(results, { ci, countUnmarked });
    this.error = fails
      ? new Error(`${skipped} test(s) skipped under CI=true; every suite must run in CI.`)
      : undefined;
    this.write(`\n${line}\n`);
  }

  getLastError() {
    return this.error;
  }
}

module.exports = SkipSummaryReporter;
module.exports.closingLine = closingLine;
