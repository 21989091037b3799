import type AjvClass from 'ajv';
import type { _ as CodeTag } from 'ajv';
import type Ajv2020Class from 'ajv/dist/2020.js';
import type AddFormats from 'ajv-formats';

/** What the schema module uses of ajv and ajv-formats. */
export interface AjvModules {
  /** The draft-07 validator class. */
  readonly Ajv: typeof AjvClass;
  /** The draft 2020-12 validator class. */
  readonly Ajv2020: typeof Ajv2020Class;
  /** The ajv-formats plugin. */
  readonly addFormats: typeof AddFormats;
  /** ajv's code template tag, for keywords that generate code. */
  readonly _: typeof CodeTag;
}

let loaded: AjvModules | undefined;

/**
 * ajv and ajv-formats, loaded on first use: a call that compiles no schema (no tools, no
 * `entity()`) never loads them, which takes about a fifth of the root entry point's own
 * import time off a cold start (docs/performance.md, W9). Compiling is synchronous, so
 * the load is too: `require`. This file is the one per-format loader: the ES module build
 * replaces it with one that takes `require` from `createRequire(import.meta.url)`
 * (`scripts/build.mjs`), since one TypeScript source cannot say both.
 * @internal
 * @example
 * ```ts
 * const { Ajv2020, addFormats } = loadAjv();
 * ```
 * @returns The modules.
 */
export function loadAjv(): AjvModules {
  if (loaded === undefined) {
    /* eslint-disable @typescript-eslint/no-require-imports -- a synchronous lazy load (above) */
    const ajv = require('ajv') as { default: typeof AjvClass; _: typeof CodeTag };
    const ajv2020 = require('ajv/dist/2020.js') as { default: typeof Ajv2020Class };
    const formats = require('ajv-formats') as { default: typeof AddFormats };
    /* eslint-enable @typescript-eslint/no-require-imports */
    loaded = { Ajv: ajv.default, Ajv2020: ajv2020.default, addFormats: formats.default, _: ajv._ };
  }
  return loaded;
}
