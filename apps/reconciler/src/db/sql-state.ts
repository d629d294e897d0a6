// SQLSTATE of a database error: tells a refusal of the data (a value it cannot store, a
// constraint) from a failure of the database itself (connection, timeout, a lock not available).

/** The driver's error in the chain (drizzle wraps it with the SQL text and its parameters). */
function driverError(error: unknown): { code: string; message: string } | undefined {
  for (let e = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code))
      return { code, message: String(message) };
  }
  return undefined;
}

/** The SQLSTATE of a driver's error, or of the error it wraps. */
export function sqlState(error: unknown): string | undefined {
  return driverError(error)?.code;
}

/**
 * The database's refusal of the rows, as `SQLSTATE message`, or undefined for any other error.
 * SQLSTATE class 22 (data exception: a value out of range, a NUL in text) or 23 (integrity
 * constraint violation) means the rows are at fault and sending them again fails again;
 * connection errors, timeouts and cancellations are other classes: the step could not run.
 */
export function dataRefusal(error: unknown): string | undefined {
  const driver = driverError(error);
  return driver && /^2[23]/.test(driver.code) ? `${driver.code} ${driver.message}` : undefined;
}
