// Process exit codes of every reconciler command (documented in docs/reconciler.md).

export const EXIT = {
  /** Done; every window read. */
  ok: 0,
  /** Failed: an error, or every window of a stream failed. */
  failed: 1,
  /** Bad command line or configuration: nothing was done. */
  usage: 2,
  /** Partly done: some windows failed (retried next run) or the run was stopped early. */
  partial: 3,
} as const;
