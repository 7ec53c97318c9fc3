// How the destination list's virtualizer learns its scroller's size and scroll offset without forcing
// a layout: the library's observers read them (getBoundingClientRect, scrollTop) the moment the list
// mounts, inside React's commit, which makes the page lay itself out in the middle of its first
// render (one long task on a loaded machine, where a frame's work is stretched several times). Here
// they start once the first frame is laid out, when the same reads are cheap; until then the list
// assumes the window's height (enough rows for any first screen) at the top. Likewise the library
// scrolls a scroller it has just been given to where it already is (the top), and a scroll lays the
// page out: a scroller that has not been through a frame, nor scrolled, is at the top already.

import { elementScroll, observeElementOffset, observeElementRect, type Rect, type Virtualizer } from '@tanstack/react-virtual';

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

type ScrollTo = typeof elementScroll<HTMLDivElement>;

/** Scrollers that may stand elsewhere than the top: laid out in a frame, or scrolled by the virtualizer. */
const mayBeScrolled = new WeakSet<Element>();

/** The library's scroll, less the scroll to the top of a scroller no frame has laid out yet (it is there). */
const scrollUnlessNew: ScrollTo = (offset, options, instance) => {
  const scroller = instance.scrollElement;
  if (scroller && !mayBeScrolled.has(scroller) && offset + (options.adjustments ?? 0) === 0) {
    requestAnimationFrame(() => mayBeScrolled.add(scroller));
    return;
  }
  if (scroller) mayBeScrolled.add(scroller);
  elementScroll(offset, options, instance);
};

/** The virtualizer's options for a scroller measured after its first layout. */
export function observedAfterFirstLayout(): {
  initialRect: Rect;
  initialOffset: number;
  observeElementRect: Observer<(rect: Rect) => void>;
  observeElementOffset: Observer<(offset: number, isScrolling: boolean) => void>;
  scrollToFn: ScrollTo;
} {
  return {
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
    initialOffset: 0,
    observeElementRect: afterFirstLayout(observeElementRect),
    observeElementOffset: afterFirstLayout(observeElementOffset),
    scrollToFn: scrollUnlessNew,
  };
}
