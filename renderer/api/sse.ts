// Parses a text/event-stream (server-sent events) as it arrives in chunks. Pure: no DOM, no I/O.
// Handles `event:`, multi-line `data:`, comments, and \r\n line ends; a partial frame waits in `rest`.
// A frame of a job's items spans many chunks: the reader splits the text only once a frame's end has
// come, never the whole held frame again for each chunk of it.

export interface SseFrame {
  event: string;
  data: string;
}

export function parseSseChunk(text: string): { frames: SseFrame[]; rest: string } {
  // A chunk may end between the \r and \n of one line end: hold a trailing \r back for the next chunk.
  const heldBack = text.endsWith('\r') ? '\r' : '';
  const body = heldBack ? text.slice(0, -1) : text;
  // The browser host ends lines with \n alone: a scan's chunks (tens of kilobytes each) need no rewrite.
  const normalized = body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
  // Lines by indexOf, a frame's data as a slice of the text: an `items` frame is one line of ~0.7 MB,
  // and splitting or rewriting it costs a copy of every byte the page parses.
  const frames: SseFrame[] = [];
  let event = 'message';
  let data: string[] = [];
  let frameStart = 0;
  for (let at = 0; at < normalized.length;) {
    const lineEnd = normalized.indexOf('\n', at);
    if (lineEnd === -1) break;
    if (lineEnd === at) {
      if (data.length > 0 || event !== 'message') frames.push({ event, data: data.length === 1 ? data[0]! : data.join('\n') });
      event = 'message';
      data = [];
      frameStart = at + 1;
    } else if (normalized.charCodeAt(at) !== 58 /* ':' a comment */) {
      const colon = normalized.indexOf(':', at);
      const hasValue = colon !== -1 && colon < lineEnd;
      const field = normalized.slice(at, hasValue ? colon : lineEnd);
      const valueStart = !hasValue ? lineEnd : normalized.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
      const value = normalized.slice(Math.min(valueStart, lineEnd), lineEnd);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    at = lineEnd + 1;
  }
  return { frames, rest: normalized.slice(frameStart) + heldBack };
}

/** Frames as chunks come: each chunk's complete frames, the partial one held for the next. */
export function sseReader(): (chunk: string) => SseFrame[] {
  let held = '';
  return (chunk) => {
    // A frame ends at a blank line: \n\n in the chunk or across its start; a \r anywhere is parsed at once.
    const ends = chunk.includes('\n\n') || (chunk.startsWith('\n') && held.endsWith('\n')) || chunk.includes('\r') || held.endsWith('\r');
    held += chunk;
    if (!ends) return [];
    const parsed = parseSseChunk(held);
    held = parsed.rest;
    return parsed.frames;
  };
}
