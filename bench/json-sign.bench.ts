/**
 * Cost of lossless JSON and signing per request: parseJson against a plain JSON.parse on a
 * realistic issuing queryTxnList page (100 card transactions, 64-bit cardIds, amounts such as
 * 100.10), and stringifyJson + sign against a plain JSON.stringify on a signed payout request.
 */
import { parseJson } from "../packages/core/src/json/parse-json";
import { stringifyJson } from "../packages/core/src/json/stringify-json";
import { sign } from "../packages/core/src/signing/sign";
import { compare } from "./harness";

const TXN_TYPES = ["AUTHORIZATION", "CLEARING", "REVERSAL", "REFUND", "VERIFICATION"];
const MERCHANTS = [
  ["AMAZON MKTPLACE PMTS", "United States", "US", "WA", "Seattle", "98109", "5942"],
  ["UBER *TRIP", "Netherlands", "NL", "NH", "Amsterdam", "1017", "4121"],
  ['CAFE "LE PETIT"', "France", "FR", "IDF", "Paris", "75002", "5814"],
  ["GOOGLE *CLOUD", "Ireland", "IE", "D", "Dublin", "D04", "5734"],
];

// Amounts with two decimals as the provider writes them: 100.10 keeps its trailing zero.
function amount(i: number): string {
  const cents = 1000 + ((i * 7919) % 99000);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

// One card transaction record with every field of service-interface.md, as wire JSON text.
function record(i: number): string {
  const [name, country, code, state, city, postal, mcc] = MERCHANTS[
    i % MERCHANTS.length
  ] as string[];
  const time = 1_717_000_000_000 + i * 61_000;
  const fee = i % 3 === 0 ? "null" : "0.50";
  return JSON.stringify({
    txnType: TXN_TYPES[i % TXN_TYPES.length],
    txnStatus: "S",
    txnOrderNo: `TXN${20240601000000 + i}`,
    originTxnOrderNo: i % 5 === 2 ? `TXN${20240601000000 + i - 1}` : null,
    originTxnOrderNoForRefund: null,
    cardId: "@cardId",
    authTime: time,
    authorizationCode: `A${(100000 + i).toString(36).toUpperCase()}`,
    authMessageDesc: "Approved",
    transactionAmount: "@amount",
    transactionCurrency: "USD",
    transactionTime: time + 120,
    cardAmount: "@amount",
    cardCurrency: "USD",
    settleAmount: "@amount",
    settleCurrency: "USD",
    settleTime: time + 86_400_000,
    transactionFee: "@fee",
    transactionFeeCurrency: "USD",
    crossBorderFee: "@fee",
    crossBorderFeeCurrency: fee === "null" ? null : "USD",
    exchangeFee: "@fee",
    exchangeFeeCurrency: fee === "null" ? null : "USD",
    merchantId: `MID${4_000_000 + i}`,
    merchantName: name,
    merchantCountry: country,
    merchantCountryCode: code,
    merchantStateProvince: state,
    merchantCity: city,
    merchantPostalCode: postal,
    merchantMccCode: mcc,
  })
    .replace('"@cardId"', String(1953712585351499776n + BigInt(i % 7)))
    .replaceAll('"@amount"', amount(i))
    .replaceAll('"@fee"', fee);
}

/** A queryTxnList answer's JSON text (envelope and page) with `records` card transactions. */
export function queryTxnListBody(records: number): string {
  const list = Array.from({ length: records }, (_, i) => record(i)).join(",");
  return `{"code":"20000","message":"success","data":{"totalRecords":1873,"pageSize":${records},"current":1,"pageNum":1,"totalPages":19,"records":[${list}]}}`;
}

// txn/remittance as the payout client builds it: strings throughout, payerDetail JSON-encoded.
const secret = "3b5e10b65bff4172a5b9ca2d2ec00a6e";
const payout: Record<string, unknown> = {
  merchantNo: "800209",
  beneficiaryId: "1953712585351499776",
  payerDetail: JSON.stringify({
    subEntityType: "0",
    country: "SG",
    companyNameEn: "Acme Trading Pte. Ltd.",
    addressEn1: "1 Raffles Place",
    postcode: "048616",
    email: "finance@acme.example",
  }),
  sourceAmount: "1000.10",
  sourceCurrency: "USD",
  targetCurrency: "SGD",
  requestId: "po-2024-06-01-000123",
  reference: "Invoice 2024-0601",
  transactionPurpose: "GOODS_TRADE",
  chargeFlag: "N",
  feeBearing: "SHA",
};

export async function run(): Promise<void> {
  const body = queryTxnListBody(100);
  // Same page with only numbers that JSON.parse keeps exactly: parseJson's fast path.
  const plainBody = body
    .replace(/1953712585351499\d+/g, "1234567")
    .replace(/\.00\b/g, "")
    .replace(/(\.\d)0\b/g, "$1");
  if (stringifyJson(parseJson(body)) !== body)
    throw new Error("parseJson did not round-trip the page");
  const signed = { ...payout, sign: await sign(payout, secret) };

  console.log(`queryTxnList page: 100 records, ${body.length.toLocaleString("en-US")} bytes`);
  await compare({
    title: "parse a 100-record issuing page (64-bit cardIds, amounts like 100.10)",
    unit: "page",
    baseline: { name: "JSON.parse (loses digits)", fn: () => JSON.parse(body) },
    candidates: [{ name: "parseJson (lossless)", fn: () => parseJson(body) }],
  });
  await compare({
    title: "parse the same page with only safe numbers (parseJson fast path)",
    unit: "page",
    baseline: { name: "JSON.parse", fn: () => JSON.parse(plainBody) },
    candidates: [{ name: "parseJson", fn: () => parseJson(plainBody) }],
  });
  await compare({
    title: "write and sign a payout request (txn/remittance)",
    unit: "req",
    baseline: { name: "JSON.stringify", fn: () => JSON.stringify(signed) },
    candidates: [
      { name: "stringifyJson", fn: () => stringifyJson(signed) },
      { name: "sign", fn: () => sign(payout, secret) },
      {
        name: "sign + stringifyJson",
        fn: async () => stringifyJson({ ...payout, sign: await sign(payout, secret) }),
      },
    ],
  });
}
