/** The API key of a request: HTTP Basic user name (empty password) or `?apikey=`. */
export interface Credentials {
  user: string;
  password: string;
}

export function credentialsOf(headers: Record<string, string | string[] | undefined>, query: Record<string, unknown>): Credentials | null {
  const auth = headers['authorization'];
  if (typeof auth === 'string' && auth.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? { user: decoded, password: '' } : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const apikey = query['apikey'];
  if (typeof apikey === 'string' && apikey !== '') return { user: apikey, password: '' };
  return null;
}
