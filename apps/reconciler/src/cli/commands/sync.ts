// `reconciler sync`: one pass over the streams from their watermarks (or an explicit range).
import type { Command } from "../command";
import { runSyncCommand } from "./sync-run";

const usage =
  "reconciler sync [--stream card_transactions,operate_records,payouts,account_transactions] [--from ISO [--to ISO]]";

export const syncCommand: Command = {
  name: "sync",
  summary: "pull new and changed records since the last run (watermark − lookback → now)",
  usage,
  run: (args, io) => runSyncCommand(args, io, { backfill: false, usage }),
};
