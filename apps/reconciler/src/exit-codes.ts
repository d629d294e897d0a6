// Process exit codes of every reconciler command (documented in docs/reconciler.md, "Exit
// codes"). Only 0 means "all done"; no documented cron, systemd or Kubernetes setup may count
// another code as success, because each of them means someone has to look.

export const EXIT = {
  /** Done: everything read, matched and written. */
  ok: 0,
  /** Failed: an error (the database gone, a step that could not run), or every window failed. */
  failed: 1,
  /** Bad command line or configuration: nothing was done. */
  usage: 2,
  /**
   * Data left unread: windows that failed (retried by every later run until read or given up
   * by a person), serviceIds not fetched, or ledger files another worker was taking in (the
   * cycle did not match). The tables miss records until a later run reads them; `reconciler
   * status` says which and since when.
   */
  unread: 3,
  /**
   * Stopped by SIGINT/SIGTERM before the end: the windows in hand were committed and nothing
   * is lost (the next run starts where this one stopped), but the run did not finish.
   */
  stopped: 4,
  /**
   * Ledger input refused: a file moved to rejected/ (with its reasons) or a ledger query whose
   * rows broke the rules; nothing of it was imported. Everything else was done.
   */
  ledgerRejected: 5,
} as const;
