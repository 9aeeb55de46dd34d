import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiController } from '@petstore/http';
import { ApiException, HttpErrorCode } from '@petstore/http-errors';
import { FixtureService } from './undocumented-refusal.fixture-service';

// The mistakes thrown-statuses.spec.ts must catch: a refusal its operation does not document (thrown from a method the handler
// calls), a throw whose status its source does not say, and a service's domain error the operation does not document.

export const FixtureRefusal = {
  forbidden: () => new ApiException(HttpErrorCode.Forbidden, 403, 'Not for you'),
};

@ApiController('fixture')
export class UndocumentedRefusalController {
  constructor(private readonly service: FixtureService) {}

  @Get()
  @ApiOperation({ operationId: 'refusesUndocumented' })
  refuses(): never {
    return this.refuse();
  }

  @Get('unreadable')
  @ApiOperation({ operationId: 'throwsUnreadable' })
  throwsUnreadable(): never {
    const error = new Error('unreadable');
    throw error;
  }

  @Get('found')
  @ApiOperation({ operationId: 'findsInService' })
  finds(): never {
    return this.service.find();
  }

  @Get('plain')
  @ApiOperation({ operationId: 'failsPlainly' })
  failsPlainly(): never {
    throw new Error('a 500, which every operation documents');
  }

  private refuse(): never {
    throw FixtureRefusal.forbidden();
  }
}
