// Saves text the page holds as a file: a Blob behind a download link, clicked once. The same in the
// desktop app and the browser host (no API call, no path from the page), so every export goes this way.

export function download(fileName: string, mediaType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mediaType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
