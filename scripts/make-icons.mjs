// Draws the app icon and writes it as PNG files for electron-builder: build/icon.png (512×512, the
// source electron-builder turns into .icns and .ico on macOS and Windows) and build/icons/<n>x<n>.png
// for Linux. Uses only Node's zlib: the PNG is assembled by hand (signature, IHDR, IDAT, IEND, CRC-32).
// Deterministic: the same script writes the same bytes, so the committed icons can be checked.
//
//   node scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const root = new URL('../', import.meta.url);

// ---- PNG encoding -------------------------------------------------------------------------------

const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** RGBA pixels (size×size×4) to a PNG file: 8-bit truecolour with alpha, filter 0 on every row. */
export function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const raw = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    raw[y * (1 + size * 4)] = 0;
    rgba.copy(raw, y * (1 + size * 4) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- Drawing: signed distance fields on a 0..1 canvas, 4×4 supersampled --------------------------

const length = (x, y) => Math.hypot(x, y);

function roundedBox(px, py, cx, cy, halfW, halfH, radius) {
  const qx = Math.abs(px - cx) - halfW + radius;
  const qy = Math.abs(py - cy) - halfH + radius;
  return length(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function segment(px, py, ax, ay, bx, by, halfWidth) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return length(px - ax - t * dx, py - ay - t * dy) - halfWidth;
}

const mix = (a, b, t) => a + (b - a) * t;

/** The colour (straight RGBA, 0..1) at one point: a blue tile, a magnifying glass, a green check. */
function shade(x, y) {
  // The tile, inset like macOS icons so it does not look oversized beside others.
  if (roundedBox(x, y, 0.5, 0.5, 0.42, 0.42, 0.09) > 0) return [0, 0, 0, 0];
  const t = (y - 0.08) / 0.84;
  let color = [mix(0.16, 0.09, t), mix(0.37, 0.23, t), mix(0.66, 0.45, t)];

  // Three stacked bundles behind the glass: what the app inspects.
  for (let i = 0; i < 3; i++) {
    const top = 0.25 + i * 0.1;
    if (roundedBox(x, y, 0.43, top, 0.2, 0.035, 0.02) <= 0) color = [mix(0.55, 0.75, i / 2), mix(0.68, 0.83, i / 2), 0.93];
  }

  const lensX = 0.45;
  const lensY = 0.47;
  const dLens = length(x - lensX, y - lensY);
  if (dLens < 0.17) color = color.map((c) => mix(c, 1, 0.18));
  const ring = Math.abs(dLens - 0.17) - 0.035;
  const handle = segment(x, y, lensX + 0.15, lensY + 0.15, 0.76, 0.78, 0.045);
  if (Math.min(ring, handle) <= 0) color = [0.97, 0.98, 1];

  const check = Math.min(segment(x, y, 0.37, 0.48, 0.43, 0.54, 0.022), segment(x, y, 0.43, 0.54, 0.54, 0.4, 0.022));
  if (check <= 0) color = [0.24, 0.86, 0.52];
  return [...color, 1];
}

export function drawIcon(size) {
  const samples = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const [cr, cg, cb, ca] = shade((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const offset = (py * size + px) * 4;
      // Average premultiplied, store straight alpha, as PNG wants.
      rgba[offset] = a === 0 ? 0 : Math.round((r / a) * 255);
      rgba[offset + 1] = a === 0 ? 0 : Math.round((g / a) * 255);
      rgba[offset + 2] = a === 0 ? 0 : Math.round((b / a) * 255);
      rgba[offset + 3] = Math.round((a / (samples * samples)) * 255);
    }
  }
  return rgba;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(new URL('build/icons/', root), { recursive: true });
  for (const size of [512, 256]) {
    const png = encodePng(size, drawIcon(size));
    writeFileSync(new URL(`build/icons/${size}x${size}.png`, root), png);
    if (size === 512) writeFileSync(new URL('build/icon.png', root), png);
    console.log(`build/icons/${size}x${size}.png: ${png.length} bytes`);
  }
}
