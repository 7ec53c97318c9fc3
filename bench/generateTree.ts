// Writes the benchmark's data: a folder of managed destinations with real hashes, or one big file.
// Writes only inside the directory it is given; the caller deletes it.

import { createHash, randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { STATE_FILE_NAME } from '../shared/stateSchema';

export interface TreeShape {
  destinations: number;
  outputsPerDestination: number;
  outputBytes: number;
}

function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A state file recording the given files, as the publisher writes it (schema 1, source outputs). */
function stateText(index: number, files: { path: string; sha256: string; size: number }[]): string {
  return JSON.stringify(
    {
      schema_version: 1,
      distributor_version: 'bench',
      pipeline_id: 'bench',
      destination_id: `d${index}`,
      published_at: '2026-06-04T12:00:00Z',
      source: {
        manifest: {
          schema_version: 1,
          id: `bench.${index}`,
          digest: sha256(Buffer.from(String(index))),
          created: '2026-06-04T11:55:00Z',
          files,
        },
      },
      links: { primary_url: `https://bench.example.com/d${index}/page-0.html` },
      outputs: files.map((file) => ({
        path: file.path,
        kind: 'source',
        source_path: file.path,
        url: `https://bench.example.com/d${index}/${file.path}`,
        sha256: file.sha256,
        size: file.size,
      })),
    },
    null,
    2,
  );
}

/** `destinations` folders named d000000…, each with its outputs (distinct contents per file) and state. */
export function writeTree(root: string, shape: TreeShape): void {
  mkdirSync(root, { recursive: true });
  const bytes = randomFillSync(Buffer.alloc(Math.max(8, shape.outputBytes)));
  for (let d = 0; d < shape.destinations; d += 1) {
    const dir = path.join(root, `d${String(d).padStart(6, '0')}`);
    mkdirSync(dir);
    const files = [];
    for (let o = 0; o < shape.outputsPerDestination; o += 1) {
      // Random bytes, made distinct per file by its number in the first 8 bytes.
      bytes.writeBigUInt64LE(BigInt(d * shape.outputsPerDestination + o), 0);
      const name = `page-${o}.html`;
      writeFileSync(path.join(dir, name), bytes);
      files.push({ path: name, sha256: sha256(bytes), size: bytes.length });
    }
    writeFileSync(path.join(dir, STATE_FILE_NAME), stateText(d, files));
  }
}

/** One destination holding one file of `bytes` random bytes (not sparse: every read is real). */
export function writeBigDestination(dir: string, bytes: number): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'big.bin');
  const chunk = randomFillSync(Buffer.alloc(8 * 1024 * 1024));
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    for (let written = 0, n = 0; written < bytes; written += chunk.length, n += 1) {
      chunk.writeBigUInt64LE(BigInt(n), 0);
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - written));
      writeSync(fd, part);
      hash.update(part);
    }
  } finally {
    closeSync(fd);
  }
  const digest = `sha256:${hash.digest('hex')}`;
  writeFileSync(path.join(dir, STATE_FILE_NAME), stateText(0, [{ path: 'big.bin', sha256: digest, size: bytes }]));
  return file;
}
