// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeBridge } from '../testing/fakeBridge';
import { listenForAppCommands, onAppCommand } from './appCommands';

// The desktop app: the preload's bridge, whose appCommand events the menu's accelerators send.
const { emit } = installFakeBridge();

const heard: string[] = [];
let stop: () => void = () => undefined;
let stopHearing: () => void = () => undefined;

beforeAll(() => {
  stop = listenForAppCommands();
  stopHearing = onAppCommand((command, path) => heard.push(path === undefined ? command : `${command} ${path}`));
});
afterAll(() => {
  stop();
  stopHearing();
});

function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = window): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

describe('app commands in the desktop app', () => {
  it('leaves the shortcut table keys to the menu, so a command never runs twice', () => {
    heard.length = 0;
    const event = press('r', { ctrlKey: true });
    expect(event.defaultPrevented).toBe(false);
    expect(heard).toEqual([]);
  });

  it('runs what the menu sends, with the path of a recent workspace', () => {
    heard.length = 0;
    emit('appCommand', { command: 'rescan' });
    emit('appCommand', { command: 'openWorkspace', path: '/srv/w.json' });
    expect(heard).toEqual(['rescan', 'openWorkspace /srv/w.json']);
  });

  it('answers / and ? itself, but not while the user types in a field', () => {
    heard.length = 0;
    expect(press('?').defaultPrevented).toBe(true);
    press('/');
    const input = document.createElement('input');
    document.body.append(input);
    press('?', {}, input);
    input.remove();
    expect(heard).toEqual(['shortcuts', 'find']);
  });
});
