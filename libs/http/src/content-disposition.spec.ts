import { attachmentDisposition } from './content-disposition';
import { FormatError } from './formats';

describe('attachmentDisposition', () => {
  it('sends a plain name bare, as the original does', () => {
    expect(attachmentDisposition('items.jl')).toBe('Attachment; filename=items.jl');
  });

  it('keeps only the file name: a client cannot point at a directory', () => {
    expect(attachmentDisposition('../../etc/passwd')).toBe('Attachment; filename=passwd');
    expect(attachmentDisposition('..\\..\\boot.ini')).toBe('Attachment; filename=boot.ini');
  });

  it('quotes other names and adds the exact one in RFC 8187 form', () => {
    expect(attachmentDisposition('my items.json')).toBe(`Attachment; filename="my items.json"; filename*=UTF-8''my%20items.json`);
    expect(attachmentDisposition('a"b;c.csv')).toBe(`Attachment; filename="a\\"b;c.csv"; filename*=UTF-8''a%22b%3Bc.csv`);
    expect(attachmentDisposition("données (1)'.csv")).toBe(`Attachment; filename="données (1)'.csv"; filename*=UTF-8''donn%C3%A9es%20%281%29%27.csv`);
    expect(attachmentDisposition('日本.jl')).toBe(`Attachment; filename="??.jl"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.jl`);
  });

  it.each(['..', '.', 'dir/', 'a\r\nSet-Cookie: x=1', 'nul\u0000'])('refuses %j with 400', (saveas) => {
    expect(() => attachmentDisposition(saveas)).toThrow(FormatError);
    try {
      attachmentDisposition(saveas);
    } catch (e) {
      expect((e as FormatError).status).toBe(400);
    }
  });
});
