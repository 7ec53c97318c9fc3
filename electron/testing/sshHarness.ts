// A real OpenSSH for the remote tests (issue 15): its own sshd on 127.0.0.1 (a free port, throwaway
// host and user keys made by ssh-keygen in a temp dir, its own sshd_config, pid file and log), a
// client config pointing at it (what DISTRIBUTOR_INSPECTOR_SSH names), and the agent run from the
// repo's build (node + dist/cli.js). Stopped by pid. For tests only; never touches ~/.ssh or /etc/ssh.
// A free port is only free until someone binds it: an sshd counts as started once it wrote its own pid
// into its pid file (sshd does so after binding), never because something answers on the port.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs, readdirSync, readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { builtCli, ensureBuilt } from './builtApp';

const run = promisify(execFile);
export const SSHD = '/usr/sbin/sshd';

/** Why the remote tests cannot run here, or undefined when they can. */
export function sshUnavailableReason(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} is missing: install openssh-server`;
  for (const tool of ['ssh', 'ssh-keygen'])
    if (!process.env.PATH?.split(':').some((dir) => existsSync(path.join(dir, tool)))) return `${tool} is missing: install openssh-client`;
  return undefined;
}

/** dist/cli.js as the agent runs it (built before the tests: testing/builtApp.ts). */
export async function ensureBuiltCli(): Promise<string> {
  await ensureBuilt(['node']);
  return builtCli;
}

/** A port the kernel says is free now: free only until someone binds it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function keygen(file: string): Promise<string> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'distributor-inspector-test', '-f', file]);
  return (await fs.readFile(`${file}.pub`, 'utf8')).trim();
}

async function fingerprint(publicKeyFile: string): Promise<string> {
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyFile]);
  return stdout.split(' ')[1]!;
}

export interface ClientSetup {
  /** `wrong`: a key the server does not know. */
  identity?: 'authorized' | 'wrong';
  /** `empty`: the host is unknown; `other`: a different key is recorded for it (a changed host key). */
  knownHosts?: 'right' | 'empty' | 'other';
}

export interface SshServer {
  port: number;
  dir: string;
  /** sshd's own log (-E, LogLevel INFO): who connected, which key was accepted or refused. */
  logFile: string;
  user: string;
  /** The SHA256 fingerprint of the server's host key, as ssh prints it. */
  hostKeyFingerprint: string;
  /** The command line for DISTRIBUTOR_INSPECTOR_SSH: `ssh -F <config>`, set up as asked. */
  sshCommand(setup?: ClientSetup): Promise<string>;
  /** The remote command that starts the agent from the repo's build: for --agent. */
  agentCommand: string;
  /** `ssh://127.0.0.1:PORT<path>`. */
  url(remotePath: string): string;
  /** The client key the server accepts, and its host key as a known_hosts line: for sshConfigOf. */
  identityFile: string;
  knownHostsLine: string;
  /** Kills the sshd and every session it forked (SIGKILL): a host that goes away mid-job. */
  killAll(): void;
  /** Starts the sshd again after killAll, on the same port with the same keys: the host is back. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The pids of every process below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone while we looked.
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

export interface StartOptions {
  /** Picks the port to try (default: one the kernel says is free now); tests hand in a taken one. */
  choosePort?: () => Promise<number>;
}

export async function startSshServer(options: StartOptions = {}): Promise<SshServer> {
  const dir = await fs.mkdtemp(path.join(tmpdir(), 'di-sshd-'));
  const user = userInfo().username;
  await keygen(path.join(dir, 'host_key'));
  const hostKey = await fs.readFile(path.join(dir, 'host_key.pub'), 'utf8');
  const userKey = await keygen(path.join(dir, 'user_key'));
  await keygen(path.join(dir, 'wrong_key'));
  await keygen(path.join(dir, 'other_host_key'));
  await fs.writeFile(path.join(dir, 'authorized_keys'), `${userKey}\n`, { mode: 0o600 });
  // sshd refuses to start without its privilege separation directory (made by the Debian package's service).
  if (process.getuid?.() === 0) await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const agentCommand = `${process.execPath} ${await ensureBuiltCli()}`;

  const config = path.join(dir, 'sshd_config');
  const pidFile = path.join(dir, 'sshd.pid');
  const logFile = path.join(dir, 'sshd.log');
  const readLog = () => fs.readFile(logFile, 'utf8').catch(() => '');
  /**
   * sshd on `port` with this config, once it has bound the port: its pid is in its pid file (written
   * after the bind). Undefined when it exited (the port was taken, its log says so). Whatever else
   * answers on the port (another sshd that took it first) is not taken for ours: that one would hold
   * other keys, and every login to "this" server would be refused (Permission denied (publickey)).
   */
  const spawnSshd = async (port: number): Promise<{ child?: ChildProcess; log: string }> => {
    await fs.rm(pidFile, { force: true });
    const started = spawn(SSHD, ['-D', '-E', logFile, '-f', config], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    const ours = async () => (await fs.readFile(pidFile, 'utf8').catch(() => '')).trim() === String(started.pid);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && started.exitCode === null && !(await ours())) await new Promise((resolve) => setTimeout(resolve, 50));
    if (started.exitCode === null && (await ours()) && (await canConnect(port))) return { child: started, log: await readLog() };
    started.kill('SIGKILL');
    await exited;
    return { log: await readLog() };
  };

  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await (options.choosePort ?? freePort)();
    await fs.writeFile(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(dir, 'host_key')}`,
        `PidFile ${path.join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
        'AuthenticationMethods publickey',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PermitRootLogin prohibit-password',
        // Tests run as root in a temp dir that sshd would find too open.
        'UsePAM no',
        'StrictModes no',
        'PrintMotd no',
        'PrintLastLog no',
        'LogLevel INFO',
        // The agent's user-level files (its history journal) go to this server's temp dir, not ~.
        'AcceptEnv XDG_STATE_HOME',
        '',
      ].join('\n'),
    );
    const started = await spawnSshd(port);
    child = started.child;
    if (!child && attempt === 4) throw new Error(`sshd did not start: ${started.log}`);
  }
  let pid = child!.pid!;

  const sshCommand = async (setup: ClientSetup = {}) => {
    const name = `client-${setup.identity ?? 'authorized'}-${setup.knownHosts ?? 'right'}`;
    const known = path.join(dir, `${name}.known_hosts`);
    const recorded =
      setup.knownHosts === 'empty'
        ? ''
        : `[127.0.0.1]:${port} ${(setup.knownHosts === 'other' ? await fs.readFile(path.join(dir, 'other_host_key.pub'), 'utf8') : hostKey).trim()}\n`;
    await fs.writeFile(known, recorded);
    const config = path.join(dir, `${name}.config`);
    await fs.writeFile(
      config,
      [
        'Host 127.0.0.1',
        `  User ${user}`,
        `  IdentityFile ${path.join(dir, setup.identity === 'wrong' ? 'wrong_key' : 'user_key')}`,
        '  IdentitiesOnly yes',
        '  IdentityAgent none',
        `  UserKnownHostsFile ${known}`,
        '  GlobalKnownHostsFile /dev/null',
        '  ConnectTimeout 10',
        `  SetEnv XDG_STATE_HOME=${path.join(dir, 'state')}`,
        '',
      ].join('\n'),
    );
    return `ssh -F ${config}`;
  };

  return {
    port,
    dir,
    logFile,
    user,
    hostKeyFingerprint: await fingerprint(path.join(dir, 'host_key.pub')),
    sshCommand,
    agentCommand,
    url: (remotePath) => `ssh://127.0.0.1:${port}${remotePath}`,
    identityFile: path.join(dir, 'user_key'),
    knownHostsLine: `[127.0.0.1]:${port} ${hostKey.trim()}`,
    killAll() {
      for (const descendant of descendants(pid).reverse()) {
        try {
          process.kill(descendant, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
    async restart() {
      const started = await spawnSshd(port);
      if (!started.child) throw new Error(`sshd did not start again on port ${port}: ${started.log}`);
      child = started.child;
      pid = child.pid!;
    },
    async stop() {
      if (child!.exitCode === null && child!.signalCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        process.kill(pid, 'SIGTERM');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One client config for several servers, each under an alias (`Host web-1`, HostName 127.0.0.1, its
 * port and key), as an operator's ~/.ssh/config would name them; written into `dir`. Returns the
 * command line for DISTRIBUTOR_INSPECTOR_SSH.
 */
export async function sshConfigOf(dir: string, servers: { alias: string; server: SshServer }[]): Promise<string> {
  const known = path.join(dir, 'hosts.known_hosts');
  await fs.writeFile(known, servers.map(({ server }) => `${server.knownHostsLine}\n`).join(''));
  const config = path.join(dir, 'hosts.ssh_config');
  await fs.writeFile(
    config,
    servers
      .flatMap(({ alias, server }) => [
        `Host ${alias}`,
        '  HostName 127.0.0.1',
        `  Port ${server.port}`,
        `  User ${server.user}`,
        `  IdentityFile ${server.identityFile}`,
        '  IdentitiesOnly yes',
        '  IdentityAgent none',
        `  UserKnownHostsFile ${known}`,
        '  GlobalKnownHostsFile /dev/null',
        '  ConnectTimeout 10',
        // Known by its address and port, not by its alias: one known_hosts line per server.
        '  HostKeyAlias [127.0.0.1]:' + server.port,
        `  SetEnv XDG_STATE_HOME=${path.join(server.dir, 'state')}`,
        '',
      ])
      .join('\n'),
  );
  return `ssh -F ${config}`;
}
