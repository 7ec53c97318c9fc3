// The form of a backup id, as the backup store writes it (the UTC time of the apply, and a counter
// when two fall in one millisecond): what the CLI, the API and the printed Undo line take. Pure.

/** A backup id as the CLI and the API take it: the folder name, nothing that climbs or nests. */
export function isBackupId(text: string): boolean {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{6}\.[0-9]{3}Z(-[0-9]{1,4})?$/.test(text);
}
