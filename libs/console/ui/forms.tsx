import type { ComponentChildren } from 'preact';

/** A labelled form field (the label names the input for screen readers and tests). */
export function Field(props: { label: string; name: string; children?: ComponentChildren; value?: string; onInput?: (value: string) => void; placeholder?: string; type?: 'text' | 'number' | 'search'; required?: boolean; hint?: string }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children ?? (
        <input name={props.name} type={(props.type ?? 'text') as 'text'} value={props.value} placeholder={props.placeholder} required={props.required} onInput={(e) => props.onInput?.((e.target as HTMLInputElement).value)} />
      )}
      {props.hint ? <small>{props.hint}</small> : null}
    </label>
  );
}

/** `a=1 b=two` or one `name=value` per line -> pairs (spider arguments). */
export function pairsOf(text: string): [string, string][] {
  return text
    .split(/\n|\s+(?=[^\s=]+=)/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const eq = l.indexOf('=');
      if (eq <= 0) throw new Error(`"${l}" is not name=value`);
      return [l.slice(0, eq), l.slice(eq + 1)];
    });
}

export function tagsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}
