// Whether schemas answer through their fast paths. Only tests turn them off (through
// `withoutFastPaths` in @merchantkit/core/testing), to compare both ways on the same values.
let on = true;

export function fastPathsOn(): boolean {
  return on;
}

export function setFastPaths(enabled: boolean): void {
  on = enabled;
}
