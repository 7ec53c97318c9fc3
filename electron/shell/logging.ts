// Electron side of logging: opens the rotating log file in `<userData>/logs` (electron/shell/logFile.ts
// decides how), logs crashes of renderer and helper processes, and backs the API's `log` and
// `openLogsFolder` methods (shell/desktopHandlers.ts). The renderer reaches the log only through
// `log`, whose request the IPC layer has validated with zod; its text is escaped onto one line
// here. Thin: no decisions of its own.

import { mkdir } from 'node:fs/promises';
import { app, shell } from 'electron';
import { APP_VERSION } from '../engine/appVersion';
import { createFileLogger, logFolder, sanitizeLogText, type FileLogger } from './logFile';
import { PRODUCT_NAME } from './diagnostics';

export interface DesktopLogging {
  logger: FileLogger;
  /** `<userData>/logs`: what Help › Open Logs Folder and the UI's error links open. */
  folder: string;
  /** Creates the folder if need be (nothing may have been logged yet) and shows it; false if it could not. */
  openLogsFolder(): Promise<boolean>;
  /** The API's `log` method (request validated by the IPC layer): one escaped line, scoped `renderer`. */
  log(level: 'error' | 'warn' | 'info', message: string, context?: string): void;
}

export function setupLogging(): DesktopLogging {
  const folder = logFolder(app.getPath('userData'));
  const logger = createFileLogger({ folder, consoleLevel: app.isPackaged ? false : 'debug' });

  // Observe only: the monitor variant leaves Node's own handling (and exit) as it is.
  process.on('uncaughtExceptionMonitor', (error, origin) => logger.error(`${origin}:`, error));
  process.on('unhandledRejection', (reason) => logger.error('unhandled rejection:', reason));
  app.on('render-process-gone', (_event, _contents, details) =>
    logger.error(`renderer process gone: ${details.reason} (exit code ${details.exitCode})`),
  );
  app.on('child-process-gone', (_event, details) =>
    logger.error(`${details.type} process gone: ${details.reason} (exit code ${details.exitCode})`),
  );
  logger.info(
    `${PRODUCT_NAME} ${APP_VERSION} starting: Electron ${process.versions.electron}, ${process.platform} ${process.arch}${app.isPackaged ? '' : ', development'}`,
  );

  const openLogsFolder = async (): Promise<boolean> => {
    await mkdir(folder, { recursive: true });
    // openPath answers with an error message, or '' when the file manager took it.
    const failure = await shell.openPath(folder);
    if (failure !== '') logger.warn(`cannot open the logs folder: ${failure}`);
    return failure === '';
  };

  const renderer = logger.scoped('renderer');
  return {
    logger,
    folder,
    openLogsFolder,
    log: (level, message, context) => renderer[level](sanitizeLogText(context === undefined ? message : `${context}: ${message}`)),
  };
}
