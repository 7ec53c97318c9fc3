// The inspector's own version: written as `distributor_version` by a replace, shown by --version.
import packageJson from '../package.json';

export const APP_VERSION: string = packageJson.version;
