// A batch of serviceIds the service (or the SDK's own request check) refuses is split until the
// ids at fault stand alone: those are parked with the answer, every other id is read. Without
// this, one bad id fails its whole batch on every run and the ids beside it are never read.
import {
  isInvalidRequestError,
  isNotFoundError,
  isRequestValidationError,
} from "@merchantkit/core";
import { errorText } from "../store/error-text";

/**
 * An answer about the ids themselves, so smaller batches can tell which: the SDK's check of the
 * request, or the service's "invalid request" / "not found" with its business code. Rate
 * limits, server errors, network trouble and authentication are about the call, not the ids:
 * the batch stays due. So is a bare HTTP 4xx without a business code (a gateway or proxy in
 * front of the service, a wrong path): taken for a refusal, a short burst of them parked every
 * id for good, and the account transactions of settled operations were never read.
 */
function isRefusalOfIds(error: unknown): boolean {
  if (isRequestValidationError(error)) return true;
  return (isInvalidRequestError(error) || isNotFoundError(error)) && error.respCode !== undefined;
}

interface Isolated<R> {
  records: R[];
  /** Ids the fetch answered for (with or without records). */
  fetched: string[];
  /** Ids refused on their own, with the answer. */
  parked: { serviceId: string; reason: string }[];
  /** Calls made (1 when the batch was taken whole). */
  calls: number;
}

/**
 * Fetches `ids`; on a refusal of ids, fetches each half, down to single ids, which are parked.
 * Any other error is thrown as it is (the caller keeps the whole batch due).
 */
export async function fetchIsolatingRefused<R>(
  ids: readonly string[],
  fetch: (ids: string[]) => Promise<R[]>,
): Promise<Isolated<R>> {
  const out: Isolated<R> = { records: [], fetched: [], parked: [], calls: 0 };
  const visit = async (part: string[]): Promise<void> => {
    out.calls++;
    try {
      out.records.push(...(await fetch(part)));
      out.fetched.push(...part);
      return;
    } catch (error) {
      if (!isRefusalOfIds(error)) throw error;
      if (part.length === 1) {
        out.parked.push({ serviceId: part[0] as string, reason: errorText(error) });
        return;
      }
    }
    const middle = Math.ceil(part.length / 2);
    await visit(part.slice(0, middle));
    await visit(part.slice(middle));
  };
  await visit([...ids]);
  return out;
}
