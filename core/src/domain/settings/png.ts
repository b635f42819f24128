// A PNG is recognised by its 8-byte signature and its first chunk, IHDR (PNG spec §5.2, §11.2.2):
// 4 bytes length (13), "IHDR", then width and height as big-endian 32-bit integers. Nothing else of
// the file is interpreted: the browser decodes it, served as image/png with nosniff.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= SIGNATURE.length && Buffer.from(bytes.subarray(0, SIGNATURE.length)).equals(SIGNATURE);
}

/** Width and height from the IHDR chunk, or null when the file does not start like a PNG should. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (!isPng(bytes) || bytes.length < 33) return null;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.readUInt32BE(8) !== 13 || view.toString("latin1", 12, 16) !== "IHDR") return null;
  const width = view.readUInt32BE(16);
  const height = view.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}
