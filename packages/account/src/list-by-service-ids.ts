/**
 * transactions.listByServiceIds: any number of serviceIds, checked with the contract's own
 * serviceIds codec before anything is sent, duplicates dropped, split into calls of at most
 * 100 (the endpoint's limit) run with bounded concurrency, and merged back in input order
 * with each balance change (acntTxnId) once.
 */
import { accountTransactionsServiceQuery, SERVICE_IDS_MAX } from "@merchantkit/contract";
import {
  RequestValidationError,
  type Transport,
  toValidationIssues,
  type ValidationIssue,
} from "@merchantkit/core";
import * as v from "valibot";
import { mapBounded } from "./map-bounded";
import type { AccountTransaction, ListByServiceIdsOptions } from "./types";

export const DEFAULT_CONCURRENCY = 4;

const PATH = accountTransactionsServiceQuery.path;
const serviceIdsCodec = accountTransactionsServiceQuery.requestCodec.shape.serviceIds;
const requestIdCodec = accountTransactionsServiceQuery.requestCodec.shape.requestId;

/** "[3]" of a window starting at `offset` → "serviceIds[offset + 3]". */
function atOffset(issue: ValidationIssue, offset: number): ValidationIssue {
  const path = issue.path.replace(/^\[(\d+)\]/, (_, i: string) => `[${offset + Number(i)}]`);
  return { path: `serviceIds${path}`, message: issue.message };
}

/**
 * The ids as the wire will carry them, in input order without repeats. Each window of at most
 * 100 is checked with the endpoint's serviceIds codec, so an empty list, a non-array or a bad id
 * at any position is reported (with its index in the input) before the first call goes out.
 */
function checkServiceIds(ids: unknown): string[] {
  const list = Array.isArray(ids) ? (ids as unknown[]) : undefined;
  // An empty list or a non-array goes through the codec once, for its own message.
  const windows = list && list.length > 0 ? chunk(list, SERVICE_IDS_MAX) : [ids];
  const issues: ValidationIssue[] = [];
  windows.forEach((window, w) => {
    const checked = v.safeParse(serviceIdsCodec.encode, window);
    if (checked.success) return;
    for (const issue of toValidationIssues(checked.issues)) {
      issues.push(atOffset(issue, w * SERVICE_IDS_MAX));
    }
  });
  if (issues.length > 0 || list === undefined) {
    throw new RequestValidationError(issues, { path: PATH });
  }
  return [...new Set(list.map((id) => String(id)))];
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function checkConcurrency(concurrency: unknown): number {
  if (concurrency === undefined) return DEFAULT_CONCURRENCY;
  if (typeof concurrency !== "number" || !Number.isInteger(concurrency) || concurrency < 1) {
    throw new RequestValidationError(
      [{ path: "concurrency", message: "must be an integer of at least 1" }],
      { path: PATH },
    );
  }
  return concurrency;
}

/**
 * The requestId of each call. A caller's key names the whole lookup; with several calls each
 * gets `<key>.<n>`, because one requestId sent with different serviceIds is a duplicate request.
 */
function requestIds(key: string | undefined, calls: number): (string | undefined)[] {
  if (key === undefined || calls === 1) return Array.from({ length: calls }, () => key);
  const keys = Array.from({ length: calls }, (_, i) => `${key}.${i + 1}`);
  for (const k of keys) {
    const checked = v.safeParse(requestIdCodec.encode, k);
    if (!checked.success) {
      const rule = toValidationIssues(checked.issues)[0]?.message ?? "is not a valid requestId";
      throw new RequestValidationError(
        [
          {
            path: "idempotencyKey",
            message: `${rule} once ".${calls}" is appended (one requestId per call of up to 100 serviceIds)`,
          },
        ],
        { path: PATH },
      );
    }
  }
  return keys;
}

/** Every serviceId's records in input order, each acntTxnId once. */
function merge(
  ids: readonly string[],
  lists: readonly AccountTransaction[][],
): AccountTransaction[] {
  const byService = new Map<string, AccountTransaction[]>(ids.map((id) => [id, []]));
  // A record for a serviceId nobody asked for is kept (at the end), never dropped silently.
  const unasked: AccountTransaction[] = [];
  for (const list of lists) {
    for (const record of list) (byService.get(record.serviceId) ?? unasked).push(record);
  }
  const seen = new Set<string>();
  const out: AccountTransaction[] = [];
  const take = (record: AccountTransaction) => {
    if (seen.has(record.acntTxnId)) return;
    seen.add(record.acntTxnId);
    out.push(record);
  };
  for (const id of ids) for (const record of byService.get(id) ?? []) take(record);
  for (const record of unasked) take(record);
  return out;
}

export async function listByServiceIds(
  transport: Transport,
  ids: readonly string[],
  options: ListByServiceIdsOptions = {},
): Promise<AccountTransaction[]> {
  const { concurrency, ...requestOptions } = options;
  const limit = checkConcurrency(concurrency);
  const unique = checkServiceIds(ids);
  const chunks = chunk(unique, SERVICE_IDS_MAX);
  const keys = requestIds(requestOptions.idempotencyKey, chunks.length);
  const answers = await mapBounded(chunks, limit, requestOptions.signal, (serviceIds, i, signal) =>
    transport.request(
      accountTransactionsServiceQuery,
      { serviceIds },
      // The key only when there is one: an options object naming idempotencyKey as undefined
      // is the caller's mistake, refused by the transport, never one made here.
      { ...requestOptions, ...(keys[i] === undefined ? {} : { idempotencyKey: keys[i] }), signal },
    ),
  );
  return merge(
    unique,
    answers.map((answer) => answer.list),
  );
}
