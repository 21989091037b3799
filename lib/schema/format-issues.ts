import type { ErrorObject } from 'ajv';
import { escapePointer, jsonPointer, type ValidationIssue } from './validation-issue.js';
import type { StandardIssue } from './zod-like-schema.js';

/**
 * The first `maxIssues` issues of a failed validation, and how many there were.
 * @internal
 */
export interface FormattedIssues {
  readonly issues: ValidationIssue[];
  readonly issueCount: number;
}

/**
 * ajv's errors as issues: a JSON Pointer to the value at fault (for `required` and
 * `additionalProperties`, to the missing or extra property) and a message. Only the first
 * `maxIssues` are formatted.
 * @internal
 * @param errors `validate.errors`.
 * @param maxIssues How many to keep.
 * @returns The kept issues and the total count.
 */
export function formatAjvErrors(
  errors: readonly ErrorObject[] | null | undefined,
  maxIssues: number,
): FormattedIssues {
  const all = errors ?? [];
  const issues: ValidationIssue[] = [];
  for (let i = 0; i < all.length && i < maxIssues; i++) issues.push(ajvIssue(all[i]));
  return { issues, issueCount: Math.max(all.length, 1) };
}

/**
 * A Standard Schema validator's (zod's) issues as JSON Pointer issues; only the first
 * `maxIssues` are formatted.
 * @internal
 * @param all The validator's issues.
 * @param maxIssues How many to keep.
 * @returns The kept issues and the total count.
 */
export function formatStandardIssues(
  all: readonly StandardIssue[],
  maxIssues: number,
): FormattedIssues {
  const issues: ValidationIssue[] = [];
  for (let i = 0; i < all.length && i < maxIssues; i++) {
    const issue = all[i];
    const path = (issue.path ?? []).map((part) => (typeof part === 'object' ? part.key : part));
    issues.push({ path: jsonPointer(path), message: issue.message });
  }
  return { issues, issueCount: Math.max(all.length, 1) };
}

/**
 * One issue as one line of text (`/city: must be string`, `(root): …` for the whole value),
 * as tool-argument errors list them.
 * @internal
 * @param issue An issue.
 * @returns The line.
 */
export function formatIssueLine(issue: ValidationIssue): string {
  return `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`;
}

/**
 * The line that says how many issues were left out, or `undefined` when none were.
 * @internal
 * @param kept How many issues were kept.
 * @param issueCount How many there were.
 * @returns `… and N more issue(s) not shown`, or `undefined`.
 */
export function omittedIssuesLine(kept: number, issueCount: number): string | undefined {
  return issueCount > kept ? `… and ${issueCount - kept} more issue(s) not shown` : undefined;
}

function ajvIssue(error: ErrorObject): ValidationIssue {
  const message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params['additionalProperty']))}`,
        message: 'is not allowed (additionalProperties is false)',
      };
    case 'required':
      return {
        path: `${error.instancePath}/${escapePointer(String(params['missingProperty']))}`,
        message: 'is required but missing',
      };
    case 'enum':
      return {
        path: error.instancePath,
        message: `${message}: ${JSON.stringify(params['allowedValues'])}`,
      };
    default:
      return { path: error.instancePath, message };
  }
}
