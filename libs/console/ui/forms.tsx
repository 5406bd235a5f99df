import type { ComponentChildren } from 'preact';

/**
 * A labelled form field (the label names the input for screen readers and tests): a text
 * input, a drop-down of `options` ([value, label]), or the children given. `onInput` gets
 * the value as text.
 */
export function Field(props: {
  label: string;
  name: string;
  children?: ComponentChildren;
  value?: string;
  onInput?: (value: string) => void;
  options?: [string | number, string][];
  placeholder?: string;
  type?: 'text' | 'number' | 'search';
  required?: boolean;
  hint?: string;
}) {
  const changed = (e: Event) => props.onInput?.((e.target as HTMLInputElement | HTMLSelectElement).value);
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children ??
        (props.options ? (
          <select name={props.name} value={props.value} onChange={changed}>
            {props.options.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        ) : (
          <input name={props.name} type={(props.type ?? 'text') as 'text'} value={props.value} placeholder={props.placeholder} required={props.required} onInput={changed} />
        ))}
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
