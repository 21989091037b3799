import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One file of the page, loaded once at start. */
export interface StaticAsset {
  contentType: string;
  body: Buffer;
}

const FILES: Readonly<Record<string, [file: string, contentType: string]>> = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/index.html': ['index.html', 'text/html; charset=utf-8'],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/style.css': ['style.css', 'text/css; charset=utf-8'],
};

/**
 * The one-page chat UI (plain HTML, CSS and JavaScript, no build step), by URL path.
 * @param dir The folder holding the files; default `examples/demo/public`.
 * @returns A map from URL path to file.
 */
export function loadStaticAssets(dir = join(__dirname, 'public')): Map<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  for (const [path, [file, contentType]] of Object.entries(FILES)) {
    assets.set(path, { contentType, body: readFileSync(join(dir, file)) });
  }
  return assets;
}
