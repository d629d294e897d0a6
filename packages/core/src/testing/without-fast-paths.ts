import { setFastPaths } from "../schema/fast-path-switch";

/**
 * Runs `fn` with every schema taking its full valibot path, so a test can check that the fast
 * paths give exactly the same answers.
 */
export function withoutFastPaths<T>(fn: () => T): T {
  setFastPaths(false);
  try {
    return fn();
  } finally {
    setFastPaths(true);
  }
}
