// The split point for ssh:// paths: scanHosts.ts and hostDoor.ts load this module when a command first
// connects, so a local command's cold start does not load ssh, child_process or the API's schemas
// (~12 ms of CPU for every `inspect`). Must hold nothing but the re-exports.

export { APP_VERSION } from '../../shared/appVersion';
export { AgentConnection } from '../remote/agentConnection';
export { RemoteFailure } from '../remote/sshFailures';
