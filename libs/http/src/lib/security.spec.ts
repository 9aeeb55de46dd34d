import { helmetHeaders } from './security';

describe('helmetHeaders', () => {
  it('records the headers helmet writes, once, for the options it is given', () => {
    expect(
      helmetHeaders({
        contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } },
        frameguard: { action: 'deny' },
      }),
    ).toMatchObject({
      'content-security-policy': "default-src 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
  });

  it('leaves out what helmet is told to leave out', () => {
    expect(helmetHeaders({ xXssProtection: false, xDnsPrefetchControl: false })).not.toHaveProperty('x-xss-protection');
  });
});
