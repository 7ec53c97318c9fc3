// The inspector's own version (shared/appVersion.ts), where the engine's rooms have always found it.
export { APP_VERSION } from '../../shared/appVersion';
