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
  const blocks = normalized.split('\n\n');
  const rest = (blocks.pop() ?? '') + heldBack;
  const frames: SseFrame[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0 || event !== 'message') frames.push({ event, data: data.join('\n') });
  }
  return { frames, rest };
}

/** Frames as chunks come: each chunk's complete frames, the partial one held for the next. */
export function sseReader(): (chunk: string) => SseFrame[] {
  let held = '';
  return (chunk) => {
    // A frame ends at a blank line: two line-end characters in a row, in the chunk or across its start.
    const ends = /[\r\n][\r\n]/.test(held.slice(-1) + chunk);
    held += chunk;
    if (!ends && !held.endsWith('\r')) return [];
    const parsed = parseSseChunk(held);
    held = parsed.rest;
    return parsed.frames;
  };
}
