import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// The console's routes are plain paths (`/p/<project>/<spider>/<job>` is the URL shub
// prints); the server answers each with the same page, and this keeps the app in step
// with the address bar: links push history entries, back and forward re-render.

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const l of listeners) l();
}

/** The current location (path and query), re-rendering on every navigation. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const changed = () => setTick((t) => t + 1);
    listeners.add(changed);
    addEventListener('popstate', changed);
    return () => {
      listeners.delete(changed);
      removeEventListener('popstate', changed);
    };
  }, []);
  return new URL(location.href);
}

/** A link that navigates in the app (a modified click still opens a new tab). */
export function Link(props: { href: string; class?: string; children: ComponentChildren; title?: string }) {
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={props.href} class={props.class} title={props.title} onClick={onClick}>
      {props.children}
    </a>
  );
}
