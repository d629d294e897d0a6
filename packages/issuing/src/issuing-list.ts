/**
 * The issuing area's queries (getOperateRecordList, queryTxnList, query3dsNotify) as core
 * PagePromises: one request per page with pageNum/pageSize, the contract checking both (and
 * the time window) on every page before it is sent.
 */
import {
  type Endpoint,
  type EndpointParams,
  type EndpointResult,
  type IssuingPageData,
  issuingPage,
  type PagePromise,
  paginate,
  type RequestOptions,
  type Transport,
} from "@merchantkit/core";

/** Page size when the caller names none: the service's maximum, so the fewest round trips. */
export const DEFAULT_PAGE_SIZE = 100;

type RecordOf<E extends Endpoint> = EndpointResult<E> extends IssuingPageData<infer T> ? T : never;

export function issuingList<E extends Endpoint>(args: {
  transport: Transport;
  endpoint: E;
  params: object | undefined;
  options: RequestOptions | undefined;
  /** A record's identity, so a record shifted onto the next page is not yielded twice. */
  key: (record: RecordOf<E>) => string;
}): PagePromise<RecordOf<E>> {
  const { transport, endpoint, options, key } = args;
  const params = (args.params ?? {}) as { pageNum?: unknown; pageSize?: unknown };
  // Not checked here: the contract refuses pageSize 0 or 101 and pageNum 0 on the first fetch.
  const pageSize = (params.pageSize ?? DEFAULT_PAGE_SIZE) as number;
  return paginate<RecordOf<E>>({
    pageNum: (params.pageNum ?? 1) as number,
    pageSize,
    key,
    fetchPage: async (pageNum) => {
      const query = { ...params, pageNum, pageSize } as unknown as EndpointParams<E>;
      const data = (await transport.request(endpoint, query, options)) as IssuingPageData<
        RecordOf<E>
      >;
      return issuingPage(data, { pageNum, pageSize });
    },
  });
}
