// The split point for ssh:// paths: hostDoor.ts (its connector is the CLI's one way to an agent), loaded
// when a command first reaches a host, is the only importer, so a local command's cold start does not
// load ssh, child_process or the API's schemas (~12 ms of CPU for every `inspect`). Must hold nothing
// but the re-exports.

export { type HandshakeClock } from '../remote/agentConnection';
export { sshHostConnector } from '../remote/hostConnector';
