// A count and its noun in one wording for every front end: "1 error", "2 errors", "1,204 entries";
// never "error(s)". Pure.

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
