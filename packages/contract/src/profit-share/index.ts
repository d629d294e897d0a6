/** The profit share area: share/return, query, the result notification and the code table. */
import { profitQuery } from "./profit-query";
import { profitShare } from "./profit-share";

export * from "./codes";
export * from "./fields";
export * from "./notification";
export * from "./profit-query";
export * from "./profit-share";
export * from "./records";

export const profitShareEndpoints = [profitShare, profitQuery] as const;
