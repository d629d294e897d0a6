/** Case-insensitive header lookup over fetch Headers and node's IncomingHttpHeaders alike. */

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  // node lower-cases incoming header names, so the direct lookup almost always hits.
  const direct = headers[name];
  if (direct !== undefined) return Array.isArray(direct) ? direct[0] : direct;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
