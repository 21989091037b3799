import type { Advisor } from '../advisor-api/advisor.js';
import type { EntityOptions } from './entity-options.js';
import type { OutputSchema } from './output-schema.js';
import { StructuredOutputValidationAdvisor } from './structured-output-validation-advisor.js';

/**
 * The advisors `entity(schema, options)` adds to its call.
 * @internal
 * @param schema The entity's schema.
 * @param options The entity options.
 * @returns An empty list, or one validation advisor.
 */
export function entityAdvisors(schema: OutputSchema, options: EntityOptions): Advisor[] {
  const { validate = false, maxDepth, maxIssues } = options;
  if (validate === false) return [];
  const settings = validate === true ? {} : validate;
  return [
    new StructuredOutputValidationAdvisor({
      maxDepth,
      maxIssues,
      ...definedOnly(settings),
      outputSchema: schema,
    }),
  ];
}

// `{ maxDepth: undefined }` in `validate` must not hide the entity's own limit.
function definedOnly<T extends object>(settings: T): T {
  return Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  ) as T;
}
