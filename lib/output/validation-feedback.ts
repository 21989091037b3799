import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import type { ValidationIssue } from '../schema/validation-issue.js';

/**
 * Options of {@link validationFeedback}.
 *
 * @example
 * ```ts
 * import { validationFeedback, type ValidationFeedbackOptions } from 'rx-advisors';
 * const options: ValidationFeedbackOptions = { issues: [{ path: '/age', message: 'must be number' }], maxLength: 500 };
 * validationFeedback(options);
 * ```
 */
export interface ValidationFeedbackOptions {
  /** The failures to report. */
  issues: readonly ValidationIssue[];
  /** How many failures there were, `issues` being the first of them; default `issues.length`. */
  issueCount?: number;
  /** Cap on the text length (the list is cut and the rest counted); default 2000. */
  maxLength?: number;
}

const DEFAULTS = { maxLength: 2000 } as const;

const RULES: OptionRules<ValidationFeedbackOptions> = {
  issues: Rules.custom('an array of { path, message } issues', (value) => Array.isArray(value)),
  issueCount: Rules.integer(0),
  maxLength: Rules.integer(1),
};

/**
 * The user message a retry carries: every validation failure, one per line
 * (`- /path: message`), cut at `maxLength` with a count of what was left out.
 *
 * @example
 * ```ts
 * import { validationFeedback } from 'rx-advisors';
 * validationFeedback({ issues: [{ path: '/age', message: 'must be number' }] });
 * // 'Your previous answer was rejected: …\n- /age: must be number\n…'
 * ```
 * @param options The issues and the length cap.
 * @returns The feedback text.
 */
export function validationFeedback(options: ValidationFeedbackOptions): string {
  const {
    issues,
    maxLength,
    issueCount: count = 0,
  } = withDefaults(DEFAULTS, validateOptions(options, RULES));
  const issueCount = Math.max(count, issues.length);
  const head = 'Your previous answer was rejected: it does not match the required JSON Schema.\n';
  const tail = '\nAnswer again with only the corrected JSON.';
  let body = '';
  let shown = 0;
  for (const issue of issues) {
    const line = `- ${issue.path === '' ? '(answer)' : issue.path}: ${clip(issue.message, 300)}\n`;
    if (head.length + body.length + line.length + tail.length + 40 > maxLength && shown > 0) break;
    body += line;
    shown++;
  }
  if (shown < issueCount) body += `- … and ${issueCount - shown} more error(s)\n`;
  return head + 'Errors:\n' + body + tail;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
