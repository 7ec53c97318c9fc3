// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { workspaceOf } from '../testing/sampleWorkspace';
import { DestinationTable } from '../view/destinationTable';
import { DestinationList } from './DestinationList';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the destination list', () => {
  it('draws its first rows without reading the page layout inside the render, and reads it after the first frame', async () => {
    const rows = DestinationTable.of('/w', workspaceOf(2_000).destinations).rows;
    // The virtualizer reads the scroller's size from clientHeight: a read that lays the page out.
    const rectReads = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get');
    const frameDone = new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    render(<DestinationList rows={rows} selectedId={undefined} onSelect={() => undefined} emptyText="none" />);
    // Rows for a window's height, from the first render: nothing measured yet.
    expect(screen.getAllByRole('option').length).toBeGreaterThan(5);
    expect(rectReads).not.toHaveBeenCalled();
    await frameDone;
    await waitFor(() => expect(rectReads).toHaveBeenCalled());
  });

  it('mounts without scrolling its scroller to the top it stands at (a scroll lays the page out)', () => {
    const rows = DestinationTable.of('/w', workspaceOf(2_000).destinations).rows;
    const scrolls = vi.spyOn(Element.prototype, 'scrollTo');
    render(<DestinationList rows={rows} selectedId={undefined} onSelect={() => undefined} emptyText="none" />);
    expect(screen.getAllByRole('option').length).toBeGreaterThan(5);
    expect(scrolls).not.toHaveBeenCalled();
  });
});
