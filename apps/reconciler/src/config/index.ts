// The reconciler's configuration: loading and checking it, and printing it without secrets.
export { describeConfig, redactUrl } from "./describe-config";
export { formatDuration, parseDuration } from "./durations";
export { CONFIG_FLAGS, ConfigError, loadConfig, requireSettings, settingName } from "./load-config";
export type { ReconcilerConfig } from "./reconciler-config";
