import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** The bundled page script, served as `/app.js`. */
export interface ClientBundle {
  /** The JavaScript of `client/main.ts` with React, `@ai-sdk/react` and `ai` bundled in. */
  js: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
}

/** Options of {@link buildClient}. */
export interface BuildClientOptions {
  /** Also write the bundle here (for a look at it); default: kept in memory only. */
  outdir?: string;
  /** Minify (default `true`). */
  minify?: boolean;
}

/**
 * Bundles the page (`client/main.ts`) with esbuild for the browser: one ES2022 script, React
 * in its production build. Nothing is written unless `outdir` is given: the server serves the
 * bundle from memory, so no build output is ever committed.
 *
 * @example
 * ```ts
 * const bundle = await buildClient({ outdir: 'test-output/use-chat' });
 * await startUseChatServer({ bundle });
 * ```
 * @param options Where to also write it, and whether to minify.
 * @returns The bundle.
 */
export async function buildClient(options: BuildClientOptions = {}): Promise<ClientBundle> {
  const { outdir, minify = true } = options;
  const result = await build({
    entryPoints: [join(__dirname, 'client', 'main.ts')],
    bundle: true,
    write: false,
    outfile: 'app.js',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (outdir !== undefined) {
    await mkdir(outdir, { recursive: true });
    await writeFile(join(outdir, basename(file.path)), file.contents);
  }
  return { js: file.text, bytes: file.contents.byteLength };
}
