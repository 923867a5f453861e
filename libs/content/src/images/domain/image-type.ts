export interface ImageType {
  readonly extension: 'png' | 'jpg' | 'gif' | 'webp' | 'avif';
  readonly contentType: string;
}

const PNG: ImageType = { extension: 'png', contentType: 'image/png' };
const JPEG: ImageType = { extension: 'jpg', contentType: 'image/jpeg' };
const GIF: ImageType = { extension: 'gif', contentType: 'image/gif' };
const WEBP: ImageType = { extension: 'webp', contentType: 'image/webp' };
const AVIF: ImageType = { extension: 'avif', contentType: 'image/avif' };

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** AVIF is an ISO-BMFF file whose leading `ftyp` box names `avif`/`avis` as its major or a compatible brand. */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = Math.min(((bytes[0] << 24) >>> 0) + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3], bytes.length);
  if (boxSize < 16) return false;
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  return brands.includes('avif') || brands.includes('avis');
}

/**
 * The image format of some bytes, read from their signature (never from a Content-Type header or a file name),
 * or null when they are not PNG, JPEG, GIF, WebP or AVIF. SVG is deliberately absent: it can carry script.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return GIF;
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return WEBP;
  if (isAvif(bytes)) return AVIF;
  return null;
}
