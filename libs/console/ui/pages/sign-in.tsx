import { useState } from 'preact/hooks';
import { Me, session } from '../api';
import { ErrorBox, useRun } from '../ui';

export function SignIn(props: { onSignedIn: (me: Me) => void }) {
  const [key, setKey] = useState('');
  const unknownFromLink = new URL(location.href).searchParams.get('signin') === 'unknown-key';
  const { busy, error, submit } = useRun(async () => props.onSignedIn(await session.signIn(key)), unknownFromLink ? 'That link carried an unknown API key: sign in with yours.' : null);
  return (
    <main class="signin">
      <h1>crawlhub</h1>
      <form onSubmit={submit}>
        <label for="apikey">API key</label>
        <input id="apikey" name="apikey" type="password" autocomplete="current-password" required value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error ? <ErrorBox error={error} /> : null}
        <p class="hint">
          The admin key is in <code>data/admin-key</code>; <code>crawlhub keys create --project N</code> makes a project key. Links also open with <code>?apikey=</code>.
        </p>
      </form>
    </main>
  );
}
