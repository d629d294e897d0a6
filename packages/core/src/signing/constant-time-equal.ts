/**
 * Byte comparison whose time depends only on the lengths, never on where the inputs differ: the
 * Web-standard stand-in for node:crypto's timingSafeEqual, so signature checks leak nothing about
 * how much of a guessed signature was right on any runtime.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lowercase hex of a digest (Web Crypto answers with an ArrayBuffer). */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let text = "";
  for (let i = 0; i < view.length; i++) text += HEX[view[i] as number];
  return text;
}
