/**
 * The parts of node:http's IncomingMessage and ServerResponse that the node and Express adapters
 * use, spelled out here so the package imports nothing from `node:` and loads on any runtime
 * (Workers, Deno, Bun); node's own objects fit these shapes.
 */
export interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>;
  readableEnded?: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  destroy(): unknown;
}

export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}
