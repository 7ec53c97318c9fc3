// Logging for every process: a rotating log file for the desktop app (electron-log's Node build,
// so it runs and is tested without Electron), and a stderr logger for the CLI and the browser host
// that is silent unless --debug. Must never import Electron, and must never let one log entry span
// several lines (a renderer could otherwise forge entries).

import { renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';
import nodeLog from 'electron-log/node';
import type { FileTransport, LogFile } from 'electron-log';

export const LOG_FOLDER_NAME = 'logs';
export const LOG_FILE_NAME = 'main.log';
export const LOG_MAX_SIZE_BYTES = 1024 * 1024;
/** main.1.log … main.3.log: about 4 MB of history at most. */
export const LOG_ARCHIVES_KEPT = 3;
export const LOG_MESSAGE_MAX_CHARS = 4000;

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** What the rest of the app logs through; electron-log and the stderr logger both fit it. */
export interface AppLogger {
  error(...parts: unknown[]): void;
  warn(...parts: unknown[]): void;
  info(...parts: unknown[]): void;
  debug(...parts: unknown[]): void;
}

/** `<userData>/logs` on every platform, so "Open logs folder" and the docs name one place. */
export function logFolder(userDataDir: string): string {
  return join(userDataDir, LOG_FOLDER_NAME);
}

export function archivedLogPath(logFile: string, index: number): string {
  const { dir, name, ext } = parse(logFile);
  return join(dir, `${name}.${index}${ext}`);
}

/**
 * Shifts main.log → main.1.log → … → main.<keep>.log, dropping the oldest. Synchronous because
 * electron-log calls it between two writes. Returns false when a rename failed, so the caller can
 * fall back to truncating rather than grow the file without bound.
 */
export function rotateLogFile(logFile: string, keep = LOG_ARCHIVES_KEPT): boolean {
  const kept = Math.max(1, keep);
  try {
    rmSync(archivedLogPath(logFile, kept), { force: true });
    for (let index = kept - 1; index >= 1; index--) {
      try {
        renameSync(archivedLogPath(logFile, index), archivedLogPath(logFile, index + 1));
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
      }
    }
    renameSync(logFile, archivedLogPath(logFile, 1));
    return true;
  } catch {
    return false;
  }
}

/**
 * One log line from text that came from elsewhere (the renderer): control characters, line breaks
 * included, are escaped so an entry cannot pretend to be several, and the length is capped.
 */
export function sanitizeLogText(text: string, maxChars = LOG_MESSAGE_MAX_CHARS): string {
  const clipped = text.length > maxChars ? `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)` : text;
  return clipped.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export interface FileLogOptions {
  folder: string;
  fileName?: string;
  maxSizeBytes?: number;
  keep?: number;
}

/** Points an electron-log file transport at our folder, with our rotation. */
export function configureFileTransport(transport: FileTransport, options: FileLogOptions): string {
  const file = join(options.folder, options.fileName ?? LOG_FILE_NAME);
  const keep = options.keep ?? LOG_ARCHIVES_KEPT;
  // Set the name explicitly: electron-log would otherwise look for a package.json to name the app.
  transport.setAppName('Distributor Inspector');
  transport.resolvePathFn = () => file;
  transport.maxSize = options.maxSizeBytes ?? LOG_MAX_SIZE_BYTES;
  transport.archiveLogFn = (old: LogFile) => {
    // When the rename fails (a file locked on Windows) truncate instead: the log must not grow forever.
    if (!rotateLogFile(old.path, keep)) old.clear();
  };
  return file;
}

export interface FileLogger extends AppLogger {
  /** The file being written. */
  file: string;
  /** A logger whose lines carry `(scope)`, e.g. the renderer's. */
  scoped(scope: string): AppLogger;
}

/**
 * A logger that appends to `<folder>/main.log` and rotates it; `consoleLevel` also echoes to the
 * console (development). Each call with a distinct logId gets its own instance.
 */
export function createFileLogger(options: FileLogOptions & { logId?: string; consoleLevel?: LogLevel | false }): FileLogger {
  const logger = nodeLog.create({ logId: options.logId ?? 'main' });
  const file = configureFileTransport(logger.transports.file, options);
  logger.transports.file.level = 'debug';
  logger.transports.console.level = options.consoleLevel ?? false;
  // Only the file and the console: never IPC or a remote endpoint.
  for (const [name, transport] of Object.entries(logger.transports)) {
    if (name !== 'file' && name !== 'console' && transport) transport.level = false;
  }
  return {
    file,
    error: (...parts) => logger.error(...parts),
    warn: (...parts) => logger.warn(...parts),
    info: (...parts) => logger.info(...parts),
    debug: (...parts) => logger.debug(...parts),
    scoped: (scope) => logger.scope(scope),
  };
}

/**
 * The CLI's and the browser host's logger: to stderr, and only with --debug, so that stdout stays
 * clean for --json and a normal run prints nothing it was not asked for.
 */
export function createStderrLogger(options: { debug: boolean; write?: (line: string) => void; now?: () => Date }): AppLogger {
  if (!options.debug) {
    const silent = () => undefined;
    return { error: silent, warn: silent, info: silent, debug: silent };
  }
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const emit =
    (level: LogLevel) =>
    (...parts: unknown[]) => {
      const text = parts
        .map((part) => (part instanceof Error ? (part.stack ?? part.message) : typeof part === 'string' ? part : safeJson(part)))
        .join(' ');
      write(`[${now().toISOString()}] [${level}] ${text}\n`);
    };
  return { error: emit('error'), warn: emit('warn'), info: emit('info'), debug: emit('debug') };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
