// `reconciler backfill --from --to`: reads a past range again without moving the watermarks.
import type { Command } from "../command";
import { runSyncCommand } from "./sync-run";

const usage = "reconciler backfill --from ISO --to ISO [--stream NAME[,NAME]]";

export const backfillCommand: Command = {
  name: "backfill",
  summary: "read a past time range again (watermarks stay where they are)",
  usage,
  run: (args, io) => runSyncCommand(args, io, { backfill: true, usage }),
};
