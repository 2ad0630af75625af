/** The path of a request target: origin-form (`/path?query`) or absolute-form (`https://host/path`). */
export function requestPath(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (url.startsWith('/')) return url.split(/[?#]/, 1)[0];
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
