// One output's content diff as the engine answered it: what the two sides are (size, sha256, where
// the bytes came from), then the line diff in a unified or a side-by-side view with line numbers,
// changed words marked and hunks whose hidden context "expand" reveals; or, for binary and large
// files, sizes, hashes and the first differing offset; or, when a side cannot be proven, that said
// plainly and what is on disk. Every line is React text: nothing of a diffed file is parsed as HTML,
// so no script, style or image in it reaches the page. One virtual list, so 10,000 lines stay fast.

import { measureElement as measureFromEntry, useVirtualizer } from '@tanstack/react-virtual';
import { useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import type { ContentDiff, DiffSide } from '../../shared/contentDiff/contentDiffSchema';
import { sideText } from '../../shared/contentDiff/contentDiffSchema';
import { diffTextLines, expandGap, formatHunkHeader, type Reveal, type TextDiff } from '../../shared/contentDiff/textDiff';
import {
  segmentsOf,
  splitRows,
  textRuns,
  unifiedRows,
  WordHighlights,
  type GapPlace,
  type SplitRow,
  type UnifiedRow,
} from '../view/contentDiffRows';
import { changeRuns, stepChange } from '../view/diffNavigation';
import { formatBytes, shortHash } from '../view/format';
import type { DiffLayout } from '../view/viewSettings';
import { saveViewSettings, savedViewSettings } from '../state/viewSettingsActions';
import { Callout } from './Callout';
import { CopyButton } from './CopyButton';
import { Icon } from './Icon';

const ROW_PX = 20;
/** A gap row (its Expand buttons): its estimate until it is measured. */
const GAP_ROW_PX = 30;
/** The page's main thread: a pathological diff is given up (shown as replaced) sooner than in the CLI. */
const RENDERER_DIFF_TIMEOUT_MS = 1000;

function LineText({ text, runs }: { text: string; runs?: { text: string; changed: boolean }[] }) {
  const parts = runs ?? [{ text, changed: false }];
  return (
    <>
      {parts.map((part, index) => {
        const inner = textRuns(part.text).map((run, at) =>
          run.special ? (
            <span key={at} className="ctl" title={run.title}>
              {run.text}
            </span>
          ) : (
            run.text
          ),
        );
        return part.changed ? (
          <mark key={index} className="word-changed">
            {inner}
          </mark>
        ) : (
          <span key={index}>{inner}</span>
        );
      })}
    </>
  );
}

function SideFacts({ label, side }: { label: string; side: DiffSide }) {
  return (
    <div className="diff-side">
      <span className="diff-side-label">{label}</span>
      {side.presence === 'file' && (
        <span className="hash">
          {formatBytes(side.sizeBytes)} · <code title={side.sha256}>{shortHash(side.sha256)}</code>
          <CopyButton value={side.sha256} label={`sha256 of ${label}`} />
        </span>
      )}
      {side.presence === 'absent' && <span className="muted">{side.message}</span>}
      {side.presence === 'not_a_file' && <span className="badge tone-danger">not a regular file: {side.what}</span>}
      {side.presence === 'unavailable' && <span className="badge tone-warning">not available</span>}
    </div>
  );
}

function GapRow({ from, to, place, onReveal }: { from: number; to: number; place: GapPlace; onReveal: (reveal: Reveal) => void }) {
  const count = to - from;
  const gap = { from, to };
  return (
    <div className="diff-gap">
      <span className="muted">
        {count.toLocaleString('en-US')} unchanged line{count === 1 ? '' : 's'} hidden
      </span>
      {place !== 'top' && count > 20 && (
        <button type="button" className="button small" onClick={() => onReveal(expandGap(gap, 'down'))}>
          <Icon name="chevronDown" /> Expand down 20
        </button>
      )}
      {place !== 'bottom' && count > 20 && (
        <button type="button" className="button small" onClick={() => onReveal(expandGap(gap, 'up'))}>
          <Icon name="chevronRight" /> Expand up 20
        </button>
      )}
      <button type="button" className="button small" onClick={() => onReveal(expandGap(gap, 'all'))}>
        Expand all {count.toLocaleString('en-US')}
      </button>
    </div>
  );
}

/** How the panel around a diff steps through its changes (F7/F8, Alt+↑/↓, the buttons). */
export interface DiffNavigator {
  step(direction: 1 | -1): void;
}

const SIGN = { context: ' ', removed: '−', added: '+' } as const;
const SIGN_WORD = { context: 'unchanged', removed: 'removed', added: 'added' } as const;

/** `plain`: every line shown, no hunk headers (one side alone, as it is). */
function LineList({
  diff,
  mode,
  plain = false,
  navigator,
}: {
  diff: TextDiff;
  mode: DiffLayout;
  plain?: boolean;
  navigator?: Ref<DiffNavigator>;
}) {
  const [reveals, setReveals] = useState<Reveal[]>(() => (plain ? [{ from: 0, to: diff.rows.length }] : []));
  const segments = useMemo(() => segmentsOf(diff, reveals), [diff, reveals]);
  const rows: (UnifiedRow | SplitRow)[] = useMemo(() => {
    const all = mode === 'unified' ? unifiedRows(diff, segments) : splitRows(diff, segments);
    return plain ? all.filter((row) => row.type !== 'hunk') : all;
  }, [diff, segments, mode, plain]);
  const highlights = useMemo(() => new WordHighlights(diff), [diff]);
  const words = (row: number) => highlights.runsOf(row);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.type === 'gap' ? GAP_ROW_PX : ROW_PX),
    // A row is sized by its ResizeObserver entry, after the frame's one layout; read at mount
    // (offsetHeight), each of them forced a layout of the whole page: two thirds of the time from
    // the click to the painted diff went there (docs/performance.md).
    measureElement: (element, entry, instance) => {
      if (entry) return measureFromEntry(element, entry, instance);
      const index = instance.indexFromElement(element);
      return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
    },
    overscan: 10,
    // The first rows are drawn before the list is measured (first paint, and a DOM without layout).
    initialRect: { width: 1000, height: 32 * 16 },
    getItemKey: (index) => rows[index]!.key,
  });
  const reveal = (next: Reveal) => setReveals((current) => [...current, next]);
  // The change shown, as an index into this list's runs; another layout or expansion starts again.
  const runs = useMemo(() => (plain ? [] : changeRuns(diff, rows)), [diff, rows, plain]);
  const [position, setPosition] = useState<{ runs: typeof runs; index: number }>();
  const currentIndex = position?.runs === runs ? position.index : -1;
  const current = runs[currentIndex];
  useImperativeHandle(
    navigator,
    () => ({
      step(direction) {
        const index = stepChange(runs.length, currentIndex, direction);
        if (index < 0) return;
        setPosition({ runs, index });
        scroller.current?.scrollIntoView({ block: 'nearest' });
        virtualizer.scrollToIndex(runs[index]!.start, { align: 'start' });
      },
    }),
    [runs, currentIndex, virtualizer],
  );

  const cell = (row: number | undefined, side: 'old' | 'new') => {
    if (row === undefined) return <div className="diff-cell empty" />;
    const line = diff.rows[row]!;
    const number = side === 'old' ? line.oldLine : line.newLine;
    return (
      <div className={`diff-cell ${line.kind}`}>
        <span className="ln" aria-hidden="true">
          {number}
        </span>
        <span className="sign" aria-hidden="true">
          {SIGN[line.kind]}
        </span>
        <span className="visually-hidden">
          {SIGN_WORD[line.kind]} line {number}:{' '}
        </span>
        <span className="code">
          <LineText text={line.text} runs={words(row)} />
          {!line.newline && <span className="no-eol"> (no newline at end of file)</span>}
        </span>
      </div>
    );
  };

  return (
    <>
      {!plain && (
        <p className="diff-position muted" role="status" data-testid="diff-position">
          {runs.length === 0
            ? 'No changed lines'
            : current
              ? `Change ${currentIndex + 1} of ${runs.length}`
              : `${runs.length} change${runs.length === 1 ? '' : 's'}: F8 or Alt+↓ goes to the next`}
        </p>
      )}
      <div
        ref={scroller}
        className={`content-diff-lines ${mode}`}
        style={{ height: Math.min(32 * 16, Math.max(rows.length, 1) * ROW_PX + 4) }}
        data-testid="content-diff-lines"
        // Focusable, so the keyboard can scroll it too (arrow keys, Page Down).
        tabIndex={0}
        role="region"
        aria-label={plain ? 'The file as it is' : 'The diff'}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="list" aria-label="Lines of the diff">
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            let content;
            if (row.type === 'hunk') content = <div className="diff-hunk">{formatHunkHeader(row.header)}</div>;
            else if (row.type === 'gap') content = <GapRow from={row.from} to={row.to} place={row.place} onReveal={reveal} />;
            else if (row.type === 'line') {
              const line = diff.rows[row.row]!;
              content = (
                <div className={`diff-line ${line.kind}`}>
                  <span className="ln" aria-hidden="true">
                    {line.oldLine}
                  </span>
                  {!plain && (
                    <span className="ln" aria-hidden="true">
                      {line.newLine}
                    </span>
                  )}
                  <span className="sign" aria-hidden="true">
                    {SIGN[line.kind]}
                  </span>
                  <span className="visually-hidden">
                    {plain ? 'line' : `${SIGN_WORD[line.kind]} line`} {line.kind === 'added' ? line.newLine : line.oldLine}:{' '}
                  </span>
                  <span className="code">
                    <LineText text={line.text} runs={words(row.row)} />
                    {!line.newline && <span className="no-eol"> (no newline at end of file)</span>}
                  </span>
                </div>
              );
            } else
              content = (
                <div className="diff-pair">
                  {cell(row.left, 'old')}
                  {cell(row.right, 'new')}
                </div>
              );
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="listitem"
                className={current && item.index >= current.start && item.index < current.end ? 'diff-slot current-change' : 'diff-slot'}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {content}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}

/** The whole of one side as numbered lines: what is on disk when the other side cannot be proven. */
function PlainText({ text }: { text: string }) {
  const diff = useMemo(() => diffTextLines(text, text), [text]);
  return <LineList diff={diff} mode="unified" plain />;
}

function offsetText(offset: number): string {
  return `${offset.toLocaleString('en-US')} (0x${offset.toString(16)})`;
}

export function ContentDiffView({ diff, navigator }: { diff: ContentDiff; navigator?: Ref<DiffNavigator> }) {
  // Unified or side by side, as the user last chose (a kept view setting).
  const [mode, setModeShown] = useState<DiffLayout>(() => savedViewSettings().diffLayout);
  const setMode = (layout: DiffLayout) => {
    setModeShown(layout);
    saveViewSettings({ diffLayout: layout });
  };
  const before = sideText(diff.old.side);
  const after = sideText(diff.new.side);
  const textDiff = useMemo(
    () =>
      before !== undefined && after !== undefined && diff.verdict === 'differs'
        ? diffTextLines(before, after, { timeoutMs: RENDERER_DIFF_TIMEOUT_MS })
        : undefined,
    [before, after, diff.verdict],
  );
  const unavailable = [diff.old, diff.new].find((entry) => entry.side.presence === 'unavailable');
  const notAFile = [diff.old, diff.new].find((entry) => entry.side.presence === 'not_a_file');
  const shown = unavailable ? (unavailable === diff.old ? diff.new : diff.old) : undefined;
  const shownText = shown ? sideText(shown.side) : undefined;

  return (
    <div className="content-diff" data-testid="content-diff">
      <div className="diff-sides">
        <SideFacts label={diff.old.label} side={diff.old.side} />
        <SideFacts label={diff.new.label} side={diff.new.side} />
      </div>
      {diff.provenance && <p className="muted">{diff.provenance}</p>}
      {diff.verdict === 'same' && (
        <Callout tone="good" title="The two are the same, byte for byte" role="status">
          {diff.status === 'ok' && <p>The file on disk matches its record in the state.</p>}
        </Callout>
      )}
      {unavailable && unavailable.side.presence === 'unavailable' && (
        <Callout tone="warning" title={`No line diff: the ${unavailable.label} bytes cannot be shown`} role="status">
          <p>{unavailable.side.reason.message}</p>
          {shown && <p className="muted">Below: what is {shown.label}, as it is.</p>}
        </Callout>
      )}
      {unavailable && shownText !== undefined && shownText !== '' && <PlainText text={shownText} />}
      {!unavailable && notAFile && notAFile.side.presence === 'not_a_file' && (
        <Callout tone="danger" title="No content to diff" role="status">
          <p>
            {notAFile.label} is not a regular file: {notAFile.side.what}.
          </p>
        </Callout>
      )}
      {!unavailable && !notAFile && diff.verdict === 'differs' && !textDiff && (
        <Callout tone="info" title="Binary or large files: no line diff" role="status">
          <p>
            {[diff.old.side, diff.new.side].some((side) => side.presence === 'file' && side.noText === 'too_large')
              ? `A line diff is made only for text up to ${formatBytes(diff.limitBytes)}.`
              : 'At least one side is not UTF-8 text.'}{' '}
            The sizes and hashes above differ
            {diff.firstDifferingOffset !== undefined
              ? `; the first differing byte is at offset ${offsetText(diff.firstDifferingOffset)}`
              : ''}
            .
          </p>
        </Callout>
      )}
      {textDiff && (
        <>
          <div className="diff-toolbar">
            <span className="badge tone-good">+{textDiff.added.toLocaleString('en-US')}</span>
            <span className="badge tone-danger">−{textDiff.removed.toLocaleString('en-US')}</span>
            {diff.firstDifferingOffset !== undefined && (
              <span className="muted">first differing byte at offset {offsetText(diff.firstDifferingOffset)}</span>
            )}
            <div className="segmented" role="group" aria-label="Diff layout">
              <button type="button" className="button small" aria-pressed={mode === 'unified'} onClick={() => setMode('unified')}>
                Unified
              </button>
              <button type="button" className="button small" aria-pressed={mode === 'split'} onClick={() => setMode('split')}>
                Side by side
              </button>
            </div>
          </div>
          {textDiff.approximate && <p className="muted">The files differ too much for a line-by-line diff in time: shown as replaced.</p>}
          {textDiff.identical ? (
            <p className="muted">The texts are the same, but the bytes differ.</p>
          ) : (
            <LineList diff={textDiff} mode={mode} {...(navigator ? { navigator } : {})} />
          )}
        </>
      )}
    </div>
  );
}
