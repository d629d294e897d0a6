/**
 * The payout area's lists (beneficiary/queryList, acct/queryPayer, txn/queryList) as core
 * PagePromises: one request per page with `current`/`size`, `size: -1` as one page holding
 * every record where the endpoint allows it.
 */
import {
  type Endpoint,
  type EndpointParams,
  type EndpointResult,
  type PagePromise,
  type PayoutPageData,
  paginate,
  payoutPage,
  type RequestOptions,
  type Transport,
} from "@merchantkit/core";

/** Page size when the caller names none: few round trips, still a modest answer. */
export const DEFAULT_PAGE_SIZE = 100;

type RecordOf<E extends Endpoint> = EndpointResult<E> extends PayoutPageData<infer T> ? T : never;

export function payoutList<E extends Endpoint>(args: {
  transport: Transport;
  endpoint: E;
  params: Omit<EndpointParams<E>, "size" | "current"> & { size?: number; current?: number };
  options: RequestOptions | undefined;
  /** A record's identity, so records shifted onto the next page are not yielded twice. */
  key: (record: RecordOf<E>) => string;
}): PagePromise<RecordOf<E>> {
  const { transport, endpoint, params, options, key } = args;
  const size = params.size ?? DEFAULT_PAGE_SIZE;
  return paginate<RecordOf<E>>({
    pageNum: params.current ?? 1,
    pageSize: size,
    key,
    fetchPage: async (current) => {
      const query = { ...params, size, current } as unknown as EndpointParams<E>;
      const data = (await transport.request(endpoint, query, options)) as PayoutPageData<
        RecordOf<E>
      >;
      return payoutPage(data, { pageNum: current, pageSize: size });
    },
  });
}
