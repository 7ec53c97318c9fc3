import { describe, expect, it } from 'vitest';
import { COMMAND_SHORTCUTS, commandOfKey, keysLabel, type KeyPress } from './shortcuts';

const press = (key: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe('the shortcut table', () => {
  it('gives every command one accelerator, none shared', () => {
    const accelerators = COMMAND_SHORTCUTS.map((shortcut) => shortcut.accelerator);
    expect(new Set(accelerators).size).toBe(accelerators.length);
    expect(new Set(COMMAND_SHORTCUTS.map((shortcut) => shortcut.command)).size).toBe(COMMAND_SHORTCUTS.length);
  });

  it('matches Ctrl on Windows and Linux and Cmd on macOS, the letter in either case', () => {
    expect(commandOfKey(press('f', { ctrlKey: true }), false)).toBe('find');
    expect(commandOfKey(press('f', { metaKey: true }), true)).toBe('find');
    expect(commandOfKey(press('A', { ctrlKey: true, shiftKey: true }), false)).toBe('verifyAll');
    expect(commandOfKey(press('E', { metaKey: true, shiftKey: true }), true)).toBe('exportReport');
    expect(commandOfKey(press('r', { ctrlKey: true }), false)).toBe('rescan');
    expect(commandOfKey(press('o', { ctrlKey: true }), false)).toBe('openWorkspace');
  });

  it('ignores a press with a modifier more or less than the accelerator says', () => {
    expect(commandOfKey(press('f'), false)).toBeUndefined();
    expect(commandOfKey(press('f', { metaKey: true }), false)).toBeUndefined();
    expect(commandOfKey(press('f', { ctrlKey: true }), true)).toBeUndefined();
    expect(commandOfKey(press('r', { ctrlKey: true, shiftKey: true }), false)).toBeUndefined();
    expect(commandOfKey(press('a', { ctrlKey: true }), false)).toBeUndefined();
    expect(commandOfKey(press('f', { ctrlKey: true, altKey: true }), false)).toBeUndefined();
  });

  it('writes the keys as each platform does', () => {
    expect(keysLabel('CmdOrCtrl+Shift+A', false)).toBe('Ctrl+Shift+A');
    expect(keysLabel('CmdOrCtrl+Shift+A', true)).toBe('⌘⇧A');
  });
});
