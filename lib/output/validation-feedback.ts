import type { ValidationIssue } from './output-schema.js';

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
  /** Cap on the text length (the list is cut and the rest counted); default 2000. */
  maxLength?: number;
}

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
  const { issues, maxLength = 2000 } = options;
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
  if (shown < issues.length) body += `- … and ${issues.length - shown} more error(s)\n`;
  return head + 'Errors:\n' + body + tail;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
