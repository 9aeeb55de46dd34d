import { Body, Get, Post } from '@nestjs/common';
import { ApiProperty, ApiResponse, DECORATORS } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { ApiModel } from './input-rules';
import { Public, RouteHeaders } from './route-policy';
import { ApiController } from './route-schemas';

// The answers a route can give without its handler saying so, documented from what it declares.

@ApiModel()
class NewThing {
  @IsString()
  label!: string;
}

@ApiModel()
class Thing {
  @ApiProperty()
  label!: string;
}

@ApiController('things')
class ThingsController {
  @Get()
  @ApiResponse({ status: 200, type: Thing })
  read() {
    return { label: 'a' };
  }

  @Post()
  @ApiResponse({ status: 201, type: Thing })
  @ApiResponse({ status: 400, description: 'or the label is taken' })
  create(@Body() thing: NewThing) {
    return thing;
  }

  @Get('open')
  @Public()
  @RouteHeaders({ Sunset: { value: 'Thu, 05 Dec 2030 00:00:00 GMT', description: 'Removed then' } })
  @ApiResponse({ status: 200, type: Thing })
  open() {
    return { label: 'a' };
  }
}

interface Answer {
  readonly description: string;
  readonly example?: { readonly message: string };
  readonly headers: Record<string, unknown>;
}

function answersOf(method: keyof ThingsController): Record<string, Answer> {
  return Reflect.getMetadata(
    DECORATORS.API_RESPONSE,
    Object.getOwnPropertyDescriptor(ThingsController.prototype, method)?.value as object,
  ) as Record<string, Answer>;
}

describe('the standard answers ApiController documents', () => {
  it('documents 400, 401, 429, 500 and 503 on an authenticated route without a body, and no 413 or 415', () => {
    expect(Object.keys(answersOf('read'))).toEqual(['200', '400', '401', '429', '500', '503']);
  });

  it('documents 413 and 415 on a route with a body, and its 400 with the first rule it breaks as the example', () => {
    const answers = answersOf('create');
    expect(Object.keys(answers)).toEqual(['201', '400', '401', '413', '415', '429', '500', '503']);
    expect(answers[400].example?.message).toBe('label is required');
  });

  it("adds the handler's own words on a standard answer after the standard ones", () => {
    expect(answersOf('create')[400].description).toMatch(/^A query parameter is invalid.*; or the label is taken$/);
  });

  it('notes that a 500 of a route that may write can leave the write done or not, and not on a read', () => {
    expect(answersOf('create')[500].description).toContain('WRITE_OUTCOME_UNKNOWN');
    expect(answersOf('read')[500].description).not.toContain('WRITE_OUTCOME_UNKNOWN');
  });

  it('puts the RateLimit fields on every answer of an authenticated route', () => {
    for (const answer of Object.values(answersOf('read'))) expect(Object.keys(answer.headers)).toContain('RateLimit');
  });

  it('documents no 401, 429 or RateLimit fields on a Public route, and its RouteHeaders on every answer', () => {
    const answers = answersOf('open');
    expect(Object.keys(answers)).toEqual(['200', '400', '500', '503']);
    for (const answer of Object.values(answers)) {
      expect(Object.keys(answer.headers)).toContain('Sunset');
      expect(Object.keys(answer.headers)).not.toContain('RateLimit');
    }
  });
});
