import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { Me, session, setCsrf } from './api';
import { Link, navigate, useLocation } from './router';
import { ErrorBox, Spinner } from './ui';
import { SignIn } from './pages/sign-in';
import { Projects } from './pages/projects';
import { ProjectPage } from './pages/project';
import { JobPage } from './pages/job';
import { UsagePage } from './pages/usage';
import { KeysPage } from './pages/keys';

function Routes(props: { me: Me }) {
  const url = useLocation();
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'usage') return <UsagePage me={props.me} />;
  if (parts[0] === 'keys') return <KeysPage me={props.me} />;
  if (parts[0] === 'p' && /^\d+$/.test(parts[1] ?? '')) {
    const project = Number(parts[1]);
    if (parts.length >= 4 && /^\d+$/.test(parts[2]) && /^\d+$/.test(parts[3])) return <JobPage project={project} spider={Number(parts[2])} job={Number(parts[3])} />;
    return <ProjectPage project={project} tab={parts[2] ?? 'jobs'} rest={parts.slice(3)} />;
  }
  if (parts.length === 0 || parts[0] === 'p') return <Projects me={props.me} />;
  return <ErrorBox error={`No page at ${url.pathname}`} />;
}

function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    session.me().then((m) => {
      setCsrf(m?.csrf ?? null);
      setMe(m);
    }, setError);
  }, []);
  const signedIn = (m: Me) => {
    setCsrf(m.csrf);
    setMe(m);
  };
  const signOut = async () => {
    await session.signOut();
    setCsrf(null);
    setMe(null);
    navigate('/');
  };
  if (error) return <ErrorBox error={error} retry={() => location.reload()} />;
  if (me === undefined) return <Spinner label="Signing in…" />;
  if (me === null) return <SignIn onSignedIn={signedIn} />;
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          crawlhub
        </Link>
        <nav>
          <Link href="/">Projects</Link>
          <Link href="/usage">Usage</Link>
          {me.admin ? <Link href="/keys">Keys</Link> : null}
        </nav>
        <span class="who" title={me.admin ? 'admin key: every project' : `projects ${me.projects.join(', ')}`}>
          {me.key_id}
          {me.admin ? ' (admin)' : ''}
        </span>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        <Routes me={me} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
