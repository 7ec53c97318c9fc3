// The CLI's name, as package.json's `bin` installs it: the one word every printed hint starts with
// when that command is on PATH (electron/engine/installedCommand.ts decides). Pure.
export const COMMAND_NAME = 'distributor-inspector';
