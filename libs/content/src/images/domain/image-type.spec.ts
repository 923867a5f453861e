import { describe, expect, it } from '@jest/globals';
import { detectImageType } from './image-type.js';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

/** A 32-bit big-endian box size. */
const u32 = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** An ISO-BMFF `ftyp` box: size, 'ftyp', major brand, minor version (4 bytes), compatible brands; then `rest`. */
function ftyp(major: string, compatible: string[], { minorVersion = [0, 0, 0, 0], rest = '' }: { minorVersion?: number[]; rest?: string } = {}): Buffer {
  const size = 16 + 4 * compatible.length;
  return bytes(u32(size), 'ftyp', major, minorVersion, compatible.join(''), rest);
}

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 0x0d], 'IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0]);
const WEBP = bytes('RIFF', u32(26).reverse(), 'WEBPVP8 ', [0, 0, 0, 0]);

describe('detectImageType', () => {
  it.each([
    ['PNG', PNG, 'png', 'image/png'],
    ['JPEG (JFIF)', JPEG, 'jpg', 'image/jpeg'],
    ['JPEG (Exif)', bytes([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10], 'Exif'), 'jpg', 'image/jpeg'],
    ['JPEG, bare signature', bytes([0xff, 0xd8, 0xff]), 'jpg', 'image/jpeg'],
    ['GIF87a', bytes('GIF87a', [1, 0, 1, 0, 0, 0, 0]), 'gif', 'image/gif'],
    ['GIF89a', bytes('GIF89a', [1, 0, 1, 0, 0x80, 0, 0]), 'gif', 'image/gif'],
    ['WebP', WEBP, 'webp', 'image/webp'],
    ['AVIF (major brand avif)', ftyp('avif', ['mif1', 'miaf']), 'avif', 'image/avif'],
    ['AVIF (major brand avif, no compatible brands)', ftyp('avif', []), 'avif', 'image/avif'],
    ['AVIF sequence (major brand avis)', ftyp('avis', ['msf1', 'iso8']), 'avif', 'image/avif'],
    ['AVIF (major brand mif1, avif among the compatible brands)', ftyp('mif1', ['mif1', 'avif', 'miaf']), 'avif', 'image/avif'],
    ['AVIF (major brand msf1, avis compatible)', ftyp('msf1', ['iso8', 'avis']), 'avif', 'image/avif'],
    ['AVIF followed by more boxes', ftyp('avif', ['mif1'], { rest: '\0\0\0\x0cmeta\0\0\0\0' }), 'avif', 'image/avif'],
  ])('%s', (_name, input, extension, contentType) => {
    expect(detectImageType(input)).toEqual({ extension, contentType });
  });

  it('accepts a Uint8Array as well as a Buffer', () => {
    expect(detectImageType(new Uint8Array(PNG))?.extension).toBe('png');
  });

  it('reads the signature, not what follows it', () => {
    expect(detectImageType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], '<svg onload="alert(1)">'))?.extension).toBe('png');
  });

  it.each([
    ['empty', bytes()],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>')],
    ['SVG with an XML declaration', bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', bytes('<!DOCTYPE html><html><body><img src=x onerror=alert(1)></body></html>')],
    ['HTML starting with a GIF-like word', bytes('<html>GIF89a</html>')],
    ['plain text', bytes('hello, world')],
    ['a PDF', bytes('%PDF-1.7\n')],
    ['a BMP', bytes('BM', [0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0])],
    ['a TIFF', bytes('II*\0', [8, 0, 0, 0])],
    ['an ICO', bytes([0, 0, 1, 0, 1, 0, 16, 16])],
    ['PNG signature, one byte short', PNG.subarray(0, 7)],
    ['PNG signature with a wrong byte', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00], 'IHDR')],
    ['PNG signature mangled by a text transfer (CRLF → LF)', bytes([0x89, 0x50, 0x4e, 0x47, 0x0a, 0x1a, 0x0a, 0x00], 'IHDR')],
    ['JPEG, two bytes', bytes([0xff, 0xd8])],
    ['JPEG, one byte', bytes([0xff])],
    ['GIF, five bytes', bytes('GIF89')],
    ['GIF with an unknown version', bytes('GIF90a', [1, 0, 1, 0])],
    ['lower-case gif', bytes('gif89a', [1, 0, 1, 0])],
    ['RIFF, eleven bytes', WEBP.subarray(0, 11)],
    ['RIFF WAVE', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ', [0x10, 0, 0, 0])],
    ['RIFF AVI', bytes('RIFF', [0x24, 0, 0, 0], 'AVI LIST')],
    ['WEBP without RIFF', bytes('RIFX', [0x24, 0, 0, 0], 'WEBPVP8 ')],
    ['ftyp heic', ftyp('heic', ['mif1', 'heic'])],
    ['ftyp heix', ftyp('heix', ['mif1', 'heix'])],
    ['ftyp mif1 without avif', ftyp('mif1', ['mif1', 'heic', 'miaf'])],
    ['ftyp mp4', ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41'])],
    ['ftyp avif, fifteen bytes', ftyp('avif', ['mif1']).subarray(0, 15)],
    ['ftyp box claiming fewer than 16 bytes', bytes(u32(12), 'ftypavif', [0, 0, 0, 0], 'avif')],
    ['avif only as the minor version', ftyp('heic', ['mif1', 'heic'], { minorVersion: [0x61, 0x76, 0x69, 0x66] })],
    ['avif after the end of the ftyp box', ftyp('heic', ['mif1'], { rest: '\0\0\0\x0cfreeavif' })],
    ['avif brand without an ftyp box', bytes(u32(20), 'moovavif', [0, 0, 0, 0], 'avif')],
    ['zeros', Buffer.alloc(64)],
  ])('refuses %s', (_name, input) => {
    expect(detectImageType(input)).toBeNull();
  });
});
