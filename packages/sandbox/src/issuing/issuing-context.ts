/** What the issuing handlers, lifecycles and admin routes share: the runtime and the state. */
import type { Runtime } from "../runtime/area";
import type { IssuingState } from "./issuing-state";

export interface IssuingContext {
  runtime: Runtime;
  state: IssuingState;
}
