// Turns zod's issues into the app's issues: same path, a domain code, and a message that names the field.
// A field that is absent is always `missing_field`, whichever schema (type, literal, enum) noticed it.

import type { z } from 'zod';
import { error, type Issue, type IssuePath } from './issues';

function isContainer(value: unknown): value is Record<string | number, unknown> {
  return value !== null && typeof value === 'object';
}

/** The value at `path`, and whether its last key is present at all in its parent. */
function lookUp(root: unknown, path: IssuePath): { value: unknown; present: boolean } {
  let value = root;
  for (let i = 0; i < path.length; i++) {
    if (!isContainer(value)) return { value: undefined, present: false };
    const key = path[i] as string | number;
    if (i === path.length - 1) return { value: value[key], present: Object.prototype.hasOwnProperty.call(value, key) };
    value = value[key];
  }
  return { value, present: true };
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'nothing';
  return `a ${typeof value}`;
}

function article(expected: string): string {
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  return `a ${expected}`;
}

function fieldName(path: IssuePath): string {
  const last = path[path.length - 1];
  return last === undefined ? 'the document' : typeof last === 'number' ? `item ${last}` : `"${last}"`;
}

/**
 * `root` is the whole document; `at` is where in it the value zod checked sits (its issues' paths
 * are relative to that value), so every issue's path starts at the document.
 */
export function fromZodIssues(zodIssues: readonly z.core.$ZodIssue[], root: unknown, at: IssuePath = []): Issue[] {
  return zodIssues.map((zodIssue) => {
    const path = [...at, ...zodIssue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))] as IssuePath;
    const { value, present } = lookUp(root, path);
    const name = fieldName(path);
    if (!present && path.length > 0) return error(path, 'missing_field', `required field ${name} is missing`);
    if (zodIssue.code === 'invalid_type') {
      if (zodIssue.expected === 'int') return error(path, 'not_integer', `${name} must be a whole number, not ${describeValue(value)}`);
      return error(path, 'invalid_type', `${name} must be ${article(zodIssue.expected)}, not ${describeValue(value)}`);
    }
    const domainCode = zodIssue.code === 'custom' ? zodIssue.params?.code : undefined;
    const code = typeof domainCode === 'string' ? domainCode : zodIssue.code;
    const message =
      zodIssue.code === 'invalid_value' ? `${name} ${zodIssue.message}, not ${describeValue(value)}` : `${name} ${zodIssue.message}`;
    return error(path, code, message);
  });
}
