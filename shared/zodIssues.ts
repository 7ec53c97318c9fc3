// Turns zod's issues into the app's issues: same path, a domain code, and a message that names the field.

import type { z } from 'zod';
import { error, type Issue, type IssuePath } from './issues';

function valueAt(root: unknown, path: IssuePath): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return `a ${typeof value}`;
}

function fieldName(path: IssuePath): string {
  const last = path[path.length - 1];
  return last === undefined ? 'the document' : typeof last === 'number' ? `item ${last}` : `"${last}"`;
}

export function fromZodIssues(zodIssues: readonly z.core.$ZodIssue[], root: unknown): Issue[] {
  return zodIssues.map((zodIssue) => {
    const path = zodIssue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)) as IssuePath;
    const value = valueAt(root, path);
    const name = fieldName(path);
    if (zodIssue.code === 'invalid_type') {
      if (zodIssue.expected === 'int') return error(path, 'not_integer', `${name} must be a whole number, not ${describe(value)}`);
      if (value === undefined) return error(path, 'missing_field', `required field ${name} is missing`);
      return error(path, 'invalid_type', `${name} must be ${zodIssue.expected === 'array' ? 'an array' : `a ${zodIssue.expected}`}, not ${describe(value)}`);
    }
    const domainCode = zodIssue.code === 'custom' ? zodIssue.params?.code : undefined;
    const code = typeof domainCode === 'string' ? domainCode : zodIssue.code;
    const message = zodIssue.code === 'invalid_value' ? `${name} ${zodIssue.message}, not ${describe(value)}` : `${name} ${zodIssue.message}`;
    return error(path, code, message);
  });
}
