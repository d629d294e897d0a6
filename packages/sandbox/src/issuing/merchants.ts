/**
 * Card acceptors the simulated cards are used at: a fixed, realistic list (name, place, MCC and
 * the currency they charge in). The generator draws from it and admin transactions default to
 * its first entry; records share these objects instead of copying eight strings each.
 */
import type { MerchantInfo } from "./issuing-records";

export interface Acceptor extends MerchantInfo {
  /** The currency the acceptor charges in: a card in another currency pays FX. */
  currency: string;
}

type Row = [string, string, string, string, string, string, string, string];

// name, country, code, state, city, postal code, MCC, currency
const ROWS: Row[] = [
  ["AMAZON MKTPLACE PMTS", "United States", "US", "WA", "Seattle", "98109", "5942", "USD"],
  ["GOOGLE *CLOUD", "United States", "US", "CA", "Mountain View", "94043", "5734", "USD"],
  ["UBER *TRIP", "United States", "US", "CA", "San Francisco", "94103", "4121", "USD"],
  ["STARBUCKS STORE 1042", "United States", "US", "NY", "New York", "10001", "5814", "USD"],
  ["DELTA AIR LINES", "United States", "US", "GA", "Atlanta", "30320", "3058", "USD"],
  ["WALMART SUPERCENTER", "United States", "US", "TX", "Dallas", "75201", "5411", "USD"],
  ["SHELL OIL 5744", "United States", "US", "IL", "Chicago", "60601", "5541", "USD"],
  ["ATM CHASE 0042", "United States", "US", "NY", "New York", "10017", "6011", "USD"],
  ["OPENAI *CHATGPT", "United States", "US", "CA", "San Francisco", "94110", "5734", "USD"],
  ["META *ADS", "Ireland", "IE", "D", "Dublin", "D02", "7311", "USD"],
  ["ZALANDO SE", "Germany", "DE", "BE", "Berlin", "10243", "5651", "EUR"],
  ["LIDL DIENSTLEISTUNG", "Germany", "DE", "BW", "Neckarsulm", "74172", "5411", "EUR"],
  ["DB BAHN FERNVERKEHR", "Germany", "DE", "HE", "Frankfurt", "60329", "4112", "EUR"],
  ['CAFE "LE PETIT"', "France", "FR", "IDF", "Paris", "75002", "5814", "EUR"],
  ["AIR FRANCE", "France", "FR", "IDF", "Roissy", "95700", "3007", "EUR"],
  ["BOOKING.COM", "Netherlands", "NL", "NH", "Amsterdam", "1017", "4722", "EUR"],
  ["ALBERT HEIJN 1403", "Netherlands", "NL", "NH", "Amsterdam", "1012", "5411", "EUR"],
  ["SPOTIFY AB", "Sweden", "SE", "AB", "Stockholm", "11153", "5815", "EUR"],
  ["TESCO STORES 2201", "United Kingdom", "GB", "ENG", "London", "EC1A", "5411", "GBP"],
  ["TFL TRAVEL CH", "United Kingdom", "GB", "ENG", "London", "SW1H", "4111", "GBP"],
  ["PRET A MANGER", "United Kingdom", "GB", "ENG", "London", "W1D", "5814", "GBP"],
  ["GRAB *RIDE", "Singapore", "SG", "SG", "Singapore", "018989", "4121", "SGD"],
  ["FAIRPRICE FINEST", "Singapore", "SG", "SG", "Singapore", "238801", "5411", "SGD"],
  ["SINGAPORE AIRLINES", "Singapore", "SG", "SG", "Singapore", "819829", "3075", "SGD"],
  ["SHOPEE SG", "Singapore", "SG", "SG", "Singapore", "138589", "5399", "SGD"],
  ["ATM DBS 1123", "Singapore", "SG", "SG", "Singapore", "018982", "6011", "SGD"],
  ["HKTVMALL", "Hong Kong", "HK", "HK", "Hong Kong", "000000", "5399", "HKD"],
  ["MTR CORPORATION", "Hong Kong", "HK", "HK", "Hong Kong", "000000", "4111", "HKD"],
  ["CATHAY PACIFIC", "Hong Kong", "HK", "HK", "Hong Kong", "000000", "3099", "HKD"],
  ["PARKNSHOP 0231", "Hong Kong", "HK", "HK", "Kowloon", "000000", "5411", "HKD"],
  ["UNIQLO GINZA", "Japan", "JP", "13", "Tokyo", "104-0061", "5651", "JPY"],
  ["LAWSON 00421", "Japan", "JP", "13", "Tokyo", "150-0002", "5499", "JPY"],
  ["JR EAST", "Japan", "JP", "13", "Tokyo", "151-8578", "4112", "JPY"],
  ["WOOLWORTHS 3021", "Australia", "AU", "NSW", "Sydney", "2000", "5411", "AUD"],
  ["QANTAS AIRWAYS", "Australia", "AU", "NSW", "Mascot", "2020", "3136", "AUD"],
  ["TIM HORTONS 0921", "Canada", "CA", "ON", "Toronto", "M5V", "5814", "CAD"],
  ["ALIEXPRESS", "China", "CN", "ZJ", "Hangzhou", "310000", "5999", "CNY"],
  ["TAOBAO.COM", "China", "CN", "ZJ", "Hangzhou", "310000", "5399", "CNY"],
  ["NETFLIX.COM", "Netherlands", "NL", "NH", "Amsterdam", "1016", "4899", "USD"],
  ["APPLE.COM/BILL", "Ireland", "IE", "CO", "Cork", "T23", "5818", "USD"],
];

export const ACCEPTORS: readonly Acceptor[] = ROWS.map((row, i) => ({
  merchantId: `MID${String(4_100_000 + i * 7919)}`,
  merchantName: row[0],
  merchantCountry: row[1],
  merchantCountryCode: row[2],
  merchantStateProvince: row[3],
  merchantCity: row[4],
  merchantPostalCode: row[5],
  merchantMccCode: row[6],
  currency: row[7],
}));

/** Just the wire's merchant fields of an acceptor (records must not carry `currency`). */
export function merchantInfo(a: Acceptor): MerchantInfo {
  const { currency: _, ...info } = a;
  return info;
}

/** The acceptors' merchant fields, shared by every record that names them. */
export const MERCHANTS: readonly MerchantInfo[] = ACCEPTORS.map(merchantInfo);
