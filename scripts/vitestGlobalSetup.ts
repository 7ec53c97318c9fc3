// Vitest's global setup: the user-level files a test may write (the CLI's own history journal in
// $XDG_STATE_HOME, anything under ~) go to a temp dir of this run, never the home of whoever runs the
// tests. Tests that pass the CLI an env of their own fall back to HOME, hence both.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'inspector-test-state-'));
  process.env.XDG_STATE_HOME = path.join(dir, 'state');
  process.env.HOME = path.join(dir, 'home');
  mkdirSync(process.env.HOME);
  return () => rmSync(dir, { recursive: true, force: true });
}
