// Reads every page of one window and checks that the service's count held still while paging:
// a record added or removed under the paging shifts the pages (one record skipped or read
// twice), so the window is read again from page 1.
import type { Page } from "@merchantkit/core";

type WindowRead<R> =
  | { kind: "read"; records: R[]; pages: number; reads: number }
  | { kind: "drifted"; pages: number; reads: number; detail: string };

/** Why a read of a window drifted, or undefined when it was consistent. */
function driftOf(first: Page<unknown> | undefined, page: Page<unknown>, seen: number) {
  if (first && page.totalRecords !== first.totalRecords)
    return `totalRecords went from ${first.totalRecords} to ${page.totalRecords} on page ${page.pageNum}`;
  if (!page.hasMore && page.totalRecords !== undefined && seen !== page.totalRecords)
    return `read ${seen} records where the service counted ${page.totalRecords}`;
  return undefined;
}

/**
 * Reads the window up to 1 + driftRetries times until one read sees the same totalRecords on
 * every page (and that many records). `pages()` starts a fresh read from page 1 each call.
 */
export async function readWindow<R>(opts: {
  pages: () => AsyncIterable<Page<R>>;
  driftRetries: number;
  onPage?: ((records: number) => void) | undefined;
}): Promise<WindowRead<R>> {
  let pages = 0;
  let detail = "";
  for (let read = 1; read <= opts.driftRetries + 1; read++) {
    const records: R[] = [];
    let first: Page<R> | undefined;
    let drift: string | undefined;
    for await (const page of opts.pages()) {
      pages++;
      records.push(...page.records);
      opts.onPage?.(page.records.length);
      drift = driftOf(first, page, records.length);
      first ??= page;
      if (drift) break;
    }
    if (!drift) return { kind: "read", records, pages, reads: read };
    detail = drift;
  }
  return { kind: "drifted", pages, reads: opts.driftRetries + 1, detail };
}
