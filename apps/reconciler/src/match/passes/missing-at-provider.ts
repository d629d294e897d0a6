// Booked, but the provider has no such record: missing_at_provider on the entry (pending inside
// the provider grace), with the entry's fee lines as further items. An entry whose serviceId is
// parked because its sub-merchant was refused is the same break, its detail saying so.
import { refusedEntityPark } from "../../store/service-ids";
import { breakClass, classSql } from "../break-class";
import type { ResolvedMatchOptions } from "../match-options";
import { matchPass } from "../match-pass";
import { literals, type Statement } from "../statement";
import { insertBreakItems, openLedger } from "../work-tables";

const missingAtProvider = breakClass({
  name: "missing_at_provider",
  priority: 1,
  meaning: "the ledger books money the provider has no record of",
  grace: (v) => v.providerGrace,
});

function missingAtProviderStatement(o: ResolvedMatchOptions): Statement {
  const v = literals(o);
  return {
    name: "missing at provider",
    text: insertBreakItems(
      {
        break_key: "'l:' || x.entry_id",
        class: classSql(missingAtProvider),
        status: `CASE WHEN x.booked_at > ${v.asOf} - ${missingAtProvider.grace(v)} THEN 'pending' ELSE 'open' END`,
        record_kind: "x.kind",
        provider_ref: "x.ref",
        entry_id: "x.entry_id",
        currency: "x.currency",
        // The entry with its fee lines in its currency, as the statement explains the break.
        amount: "abs(x.amount + coalesce(t.fees, 0))",
        ledger_amount: "x.amount + coalesce(t.fees, 0)",
        // An id parked because the service would not let the merchant act for its sub-merchant
        // was never answered for: the provider refused the read, it did not say it has nothing.
        detail: `format('entry %s books %s %s on %s %s%s, %s', x.entry_id,
          x.amount, x.currency, replace(x.kind, '_', ' '), x.ref,
          CASE WHEN t.fees <> 0 THEN format(' (fee lines %s, together %s)', t.fees, x.amount + t.fees) ELSE '' END,
          CASE WHEN p.service_id IS NULL THEN 'which the provider does not have'
            ELSE format('which the provider refused to let the merchant read: sub-merchant %s refused, serviceId parked (finance_parked_service_ids)', p.entity) END)`,
        occurred_at: "x.booked_at",
        side: "'ledger'",
        item_kind: "'ledger_entry'",
        item_ref: "r.entry_id",
        item_amount: "r.amount",
        item_currency: "r.currency",
        main_item: "r.main",
      },
      `FROM l x JOIN recs r ON r.owner = x.entry_id
      LEFT JOIN fees t ON t.owner = x.entry_id AND t.currency = x.currency
      LEFT JOIN service_ids p ON x.kind = 'account' AND p.service_id = x.ref
        AND p.parked_at IS NOT NULL AND ${refusedEntityPark("p")}
      WHERE x.kind <> 'fee'`,
      `l AS (SELECT l.* FROM ledger_leftovers l WHERE ${openLedger("l")}),
      parent AS (SELECT DISTINCT ON (ref) entry_id, ref FROM l WHERE kind <> 'fee' ORDER BY ref, entry_id),
      recs AS (
        SELECT x.entry_id AS owner, x.entry_id, x.amount, x.currency, true AS main FROM l x WHERE x.kind <> 'fee'
        UNION ALL
        SELECT pa.entry_id, f.entry_id, f.amount, f.currency, false FROM l f JOIN parent pa ON pa.ref = f.ref
        WHERE f.kind = 'fee'
      ),
      fees AS (SELECT owner, currency, sum(amount) AS fees FROM recs WHERE NOT main GROUP BY owner, currency)`,
    ),
  };
}

export const missingAtProviderPass = matchPass([missingAtProvider], (o) => [
  missingAtProviderStatement(o),
]);
