// How the destination list's virtualizer learns its scroller's size and scroll offset without forcing
// a layout: the library's observers read them (getBoundingClientRect, scrollTop) the moment the list
// mounts, inside React's commit, which makes the page lay itself out in the middle of its first
// render (one long task on a loaded machine, where a frame's work is stretched several times). Here
// they start once the first frame is laid out, when the same reads are cheap; until then the list
// assumes the window's height (enough rows for any first screen) at the top.

import { observeElementOffset, observeElementRect, type Rect, type Virtualizer } from '@tanstack/react-virtual';

type Observer<Value> = (instance: Virtualizer<HTMLDivElement, Element>, cb: Value) => void | (() => void);

/** Runs `observe` after the next frame is laid out (a task after its animation frame); stops it, or its start, on cleanup. */
function afterFirstLayout<Value>(observe: Observer<Value>): Observer<Value> {
  return (instance, cb) => {
    let stop: void | (() => void);
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (!cancelled) stop = observe(instance, cb);
      }, 0);
    });
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
      stop?.();
    };
  };
}

/** The virtualizer's options for a scroller measured after its first layout. */
export function observedAfterFirstLayout(): {
  initialRect: Rect;
  initialOffset: number;
  observeElementRect: Observer<(rect: Rect) => void>;
  observeElementOffset: Observer<(offset: number, isScrolling: boolean) => void>;
} {
  return {
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
    initialOffset: 0,
    observeElementRect: afterFirstLayout(observeElementRect),
    observeElementOffset: afterFirstLayout(observeElementOffset),
  };
}
