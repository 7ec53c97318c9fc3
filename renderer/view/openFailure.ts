// Why a workspace did not open, as the Open dialog lists it: the file once, then every problem with
// its field (what `scan` prints, one line each). Pure. Never drops a problem the engine reported, and
// never repeats the file in each line when the heading already names it.

import type { ApiError } from '../../shared/api';
import { issueSchema } from '../../shared/issueSchema';
import { formatIssuePath, type Issue } from '../../shared/issues';

export interface OpenProblem {
  /** The field in the workspace file (`destinations[0].path`); absent for the file as a whole. */
  field?: string;
  code?: string;
  message: string;
}

export interface OpenFailure {
  /** The folder or workspace file that did not open, absolute as the engine read it. */
  file: string;
  problems: OpenProblem[];
}

/** The engine's error details of an `invalid_workspace`: the file and every issue, when it sent them. */
function detailsOf(error: ApiError): { file: string; issues: Issue[] } | undefined {
  const details = error.details as { file?: unknown; issues?: unknown } | undefined;
  if (typeof details?.file !== 'string' || !Array.isArray(details.issues)) return undefined;
  const issues = details.issues.flatMap((raw) => {
    const parsed = issueSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
  return issues.length > 0 ? { file: details.file, issues } : undefined;
}

/** "/srv/ws does not exist" under a heading naming /srv/ws reads "does not exist". */
function withoutLeadingFile(message: string, file: string): string {
  for (const prefix of [`${file}: `, `${file} `]) {
    if (message.startsWith(prefix) && message.length > prefix.length) return message.slice(prefix.length);
  }
  return message;
}

export function openFailureOf(requested: string, error: ApiError): OpenFailure {
  const details = detailsOf(error);
  if (!details) return { file: requested, problems: [{ code: error.code, message: withoutLeadingFile(error.message, requested) }] };
  return {
    file: details.file,
    problems: details.issues.map((issue) => ({
      ...(issue.path.length > 0 ? { field: formatIssuePath(issue.path) } : {}),
      code: issue.code,
      message: withoutLeadingFile(issue.message, details.file),
    })),
  };
}
