/**
 * Fills `{name}` slots of a template in one pass, so a value that contains another slot's
 * name (a question mentioning `{context}`) is never expanded again; unknown slots stay.
 * @internal
 * @param template The template.
 * @param values The slots' values, by name.
 * @returns The filled text.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (slot, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? slot) : slot,
  );
}

/**
 * An option rule's test: a string containing every given slot.
 * @internal
 * @param slots The slots it must contain, without braces.
 * @returns The test.
 */
export function hasSlots(...slots: readonly string[]): (value: unknown) => boolean {
  return (value) => typeof value === 'string' && slots.every((slot) => value.includes(`{${slot}}`));
}
