// @vitest-environment happy-dom
// The content diff view over answers shaped as the engine gives them: hostile markup stays text,
// changed words are marked, hidden context expands, the layouts switch, and an unprovable side is
// said to be so with what is on disk shown.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContentDiff, DiffSide } from '../../shared/contentDiff/contentDiffSchema';
import { ContentDiffView } from './ContentDiffView';

afterEach(cleanup);

// happy-dom lays nothing out: give the diff's scroll box a size, so the virtual list draws its rows.
beforeAll(() => {
  for (const [name, size] of [
    ['clientHeight', 512],
    ['clientWidth', 1000],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('content-diff-lines') ? size : 0;
      },
    });
  }
});

const HASH_A = `sha256:${'a'.repeat(64)}`;
const HASH_B = `sha256:${'b'.repeat(64)}`;
const fileSide = (text: string, sha256: string): DiffSide => ({ presence: 'file', sizeBytes: text.length, sha256, text });

function answer(before: string, after: string, patch: Partial<ContentDiff> = {}): ContentDiff {
  return {
    path: 'index.html',
    against: 'recorded',
    old: { label: 'expected (as the state records it)', side: fileSide(before, HASH_A) },
    new: { label: 'on disk', side: fileSide(after, HASH_B) },
    verdict: 'differs',
    limitBytes: 2 * 1024 * 1024,
    ...patch,
  };
}

const HOSTILE =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><style>body { display: none }</style><iframe src="https://example.com"></iframe>';

describe('ContentDiffView', () => {
  it('shows hostile markup in a diffed line as text: no script, image, style or frame reaches the DOM', () => {
    const { container } = render(<ContentDiffView diff={answer('<p>hello</p>\n', `<p>hello</p>\n${HOSTILE}\n`)} />);
    const lines = screen.getByTestId('content-diff-lines');
    expect(lines.textContent).toContain(HOSTILE);
    expect(container.querySelectorAll('script, img, style, iframe, link, object, embed')).toHaveLength(0);
    expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('marks the changed words of a replaced line and counts the lines added and removed', () => {
    const { container } = render(<ContentDiffView diff={answer('build, sign, publish\n', 'build, sign, ship\n')} />);
    expect([...container.querySelectorAll('mark.word-changed')].map((mark) => mark.textContent)).toEqual(['publish', 'ship']);
    expect(screen.getByText('+1')).toBeTruthy();
    expect(screen.getByText('−1')).toBeTruthy();
  });

  it('hides context far from a change, and "Expand all" shows it', async () => {
    const before = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 50\n', 'fifty\n');
    render(<ContentDiffView diff={answer(before, after)} />);
    const lines = screen.getByTestId('content-diff-lines');
    expect(lines.textContent).not.toContain('line 10');
    expect(lines.textContent).toContain('46 unchanged lines hidden');
    await userEvent.click(within(lines).getByRole('button', { name: 'Expand all 46' }));
    expect(lines.textContent).toContain('line 10');
    expect(lines.textContent).not.toContain('46 unchanged lines hidden');
  });

  it('switches to side by side, the removed line beside the added one', async () => {
    const { container } = render(<ContentDiffView diff={answer('keep\nold\n', 'keep\nnew\n')} />);
    await userEvent.click(screen.getByRole('button', { name: 'Side by side' }));
    expect(screen.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    const pair = [...container.querySelectorAll('.diff-pair')].find((row) => row.textContent?.includes('old'));
    expect(pair?.querySelector('.diff-cell.removed')?.textContent).toContain('old');
    expect(pair?.querySelector('.diff-cell.added')?.textContent).toContain('new');
  });

  it('says the expected bytes are not available and shows what is on disk', () => {
    const reason = { code: 'source_changed', message: 'the expected bytes are not available: the source changed since' };
    render(
      <ContentDiffView
        diff={answer('', 'typed by hand\n', {
          old: { label: 'expected (as the state records it)', side: { presence: 'unavailable', reason } },
        })}
      />,
    );
    expect(screen.getByText(reason.message)).toBeTruthy();
    expect(screen.getByTestId('content-diff-lines').textContent).toContain('typed by hand');
  });

  it('gives sizes, hashes and the first differing offset for binary files', () => {
    const binary = (sha256: string): DiffSide => ({ presence: 'file', sizeBytes: 10, sha256, noText: 'binary' });
    render(
      <ContentDiffView
        diff={answer('', '', {
          old: { label: 'a', side: binary(HASH_A) },
          new: { label: 'b', side: binary(HASH_B) },
          firstDifferingOffset: 7,
        })}
      />,
    );
    expect(screen.getByText(/the first differing byte is at offset 7 \(0x7\)/)).toBeTruthy();
    expect(screen.queryByTestId('content-diff-lines')).toBeNull();
  });
});
