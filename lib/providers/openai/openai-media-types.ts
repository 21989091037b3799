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

/**
 * The media type of a cited file, read from its name's extension (the table above);
 * `application/octet-stream` for any other name.
 * @internal
 */
export function mediaTypeOfFilename(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return 'application/octet-stream';
  const extension = filename.slice(dot + 1).toLowerCase();
  for (const mediaType in EXTENSIONS) {
    if (EXTENSIONS[mediaType] === extension) return mediaType;
  }
  return 'application/octet-stream';
}
