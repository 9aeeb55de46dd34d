import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiController } from '@petstore/http';
import { ApiException, HttpErrorCode } from '@petstore/http-errors';

// The mistakes thrown-statuses.spec.ts must catch: a refusal its operation does not document (thrown from a method the handler
// calls), and a throw whose status its source does not say.

export const FixtureRefusal = {
  forbidden: () => new ApiException(HttpErrorCode.Forbidden, 403, 'Not for you'),
};

@ApiController('fixture')
export class UndocumentedRefusalController {
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

  private refuse(): never {
    throw FixtureRefusal.forbidden();
  }
}
