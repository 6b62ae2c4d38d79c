/** Reading what a PNG says of itself, without a decoder: its signature and the IHDR chunk's size. */

/** The eight bytes every PNG starts with (https://www.w3.org/TR/png/#5PNG-file-signature). */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** Whether `bytes` start with the PNG signature. */
export const isPng = (bytes: Uint8Array): boolean => PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);

/** Width and height from the IHDR chunk, which follows the signature (length, "IHDR", width, height: big-endian). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (!isPng(bytes) || type !== 'IHDR') throw new Error('not a PNG with an IHDR chunk first');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
