/**
 * The image types OpenAI's vision input takes (both APIs), lower case.
 * @internal
 */
export const OPENAI_IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
];

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/markdown': 'md',
  'text/html': 'html',
  'application/json': 'json',
};

/**
 * The file name sent with an inline file that has none (OpenAI wants one with
 * `file_data`, and reads the type from its extension).
 * @internal
 */
export function defaultFilename(mediaType: string): string {
  const extension = EXTENSIONS[mediaType.toLowerCase()];
  return extension === undefined ? 'file' : `file.${extension}`;
}
