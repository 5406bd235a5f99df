import { pythonJson } from './python-json';

describe('pythonJson', () => {
  it('writes separators and escapes as Python json.dumps does', () => {
    expect(pythonJson({ key: '1/2/3', auth: null, tags: ['a', 'b'], n: 2, 'é': 'ü' })).toBe('{"key": "1/2/3", "auth": null, "tags": ["a", "b"], "n": 2, "\\u00e9": "\\u00fc"}');
  });
});
