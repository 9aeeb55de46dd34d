import { Get } from '@nestjs/common';
import { Public } from '@petstore/http';
import { Principal } from './bearer-auth.hook';

// @Principal() hands over the key that authentication let through: a @Public() route has none to give.

describe('@Principal()', () => {
  it('cannot be taken by a @Public() handler: the class is refused as it is declared, naming the fix', () => {
    expect(() => {
      class Probes {
        @Get('whoami')
        @Public()
        whoami(@Principal() principal: Principal) {
          return principal;
        }
      }
      return Probes;
    }).toThrow('Probes.whoami is @Public() but takes @Principal(), which only an authenticated request has: remove one of the two');
  });

  it('is taken by a handler that requires a key', () => {
    expect(() => {
      class Pets {
        @Get('mine')
        mine(@Principal() principal: Principal) {
          return principal;
        }
      }
      return Pets;
    }).not.toThrow();
  });
});
