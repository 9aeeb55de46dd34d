import { exactJsonResponseBodyPlugin } from './exact-json-plugin';

interface Element {
  readonly type: unknown;
  readonly props: Record<string, unknown> | null;
  readonly children: unknown[];
}

const ORIGINAL = 'OriginalResponseBody';
const HIGHLIGHT_CODE = 'HighlightCode';
/** Swagger UI's system, with React elements as plain objects. */
const system = {
  React: {
    createElement: (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): Element => ({ type, props, children }),
  },
  getComponent: (name: string) => (name === 'HighlightCode' ? HIGHLIGHT_CODE : undefined),
};

type Plugin = typeof exactJsonResponseBodyPlugin;
type ResponseBodyProps = { content: unknown; contentType?: string };

/** What the wrapped ResponseBody renders for these properties, with the plugin `plugin`. */
function render(props: ResponseBodyProps, plugin: Plugin = exactJsonResponseBodyPlugin): Element {
  const component = plugin().wrapComponents.responseBody(ORIGINAL, system) as (properties: ResponseBodyProps) => Element;
  return component(props);
}

/** The code a JSON body is shown as. */
function shownJson(content: string, plugin?: Plugin): unknown {
  const [heading, code] = render({ content, contentType: 'application/json; charset=utf-8' }, plugin).children as Element[];
  expect(heading.children).toEqual(['Response body']);
  expect(code.type).toBe(HIGHLIGHT_CODE);
  expect(code.props).toMatchObject({ language: 'json', canCopy: true, downloadable: true });
  return code.children[0];
}

describe('exactJsonResponseBodyPlugin', () => {
  it.each([
    ['a pet', '{"id":1,"name":"Rex","categoryId":1,"status":"available"}'],
    ['a list', '[{"id":1,"name":"Rex"},{"id":2,"name":"Max"}]'],
    ['empty containers', '{"a":[],"b":{},"c":[{}],"d":[[]]}'],
    ['an Error body', '{"code":"VALIDATION_FAILED","message":"name is required","status":400}'],
    ['strings holding JSON punctuation and escapes', '{"name":"a, b: {c} [d] \\"e\\" \\\\","x":"\\n"}'],
    ['whitespace between tokens', ' {\n "a" : [ 1 , 2 ] ,\t"b":null } '],
    ['scalars', '[true,false,null,-0.5,1000,"s"]'],
  ])('lays out %s as Swagger UI does (JSON.stringify with 2 spaces)', (_label, body) => {
    expect(shownJson(body)).toBe(JSON.stringify(JSON.parse(body), null, 2));
  });

  it('keeps every digit of int64 values, which JSON.parse would round', () => {
    const body = '[{"id":9223372036854775806,"categoryId":9223372036854775807},{"id":2,"categoryId":-9223372036854775808}]';
    const shown = shownJson(body) as string;
    expect(shown).toContain('"id": 9223372036854775806,');
    expect(shown).toContain('"categoryId": 9223372036854775807\n');
    expect(shown).toContain('"categoryId": -9223372036854775808\n');
    expect(shown.replace(/\s/g, '')).toBe(body);
  });

  it('shows every literal as the service wrote it', () => {
    expect(shownJson('[1e3,"\\u00e9"]')).toBe('[\n  1e3,\n  "\\u00e9"\n]');
  });

  it('leaves bodies that are not JSON, or not valid JSON, to Swagger UI', () => {
    for (const props of [
      { content: 'plain text', contentType: 'text/plain' },
      { content: '{"unterminated":', contentType: 'application/json' },
      { content: new Uint8Array([1, 2]), contentType: 'application/json' },
    ]) {
      expect(render(props)).toEqual({ type: ORIGINAL, props, children: [] });
    }
  });

  it('leaves JSON to Swagger UI in a browser without JSON.rawJSON', () => {
    const { rawJSON } = JSON as { rawJSON?: unknown };
    delete (JSON as { rawJSON?: unknown }).rawJSON;
    try {
      const props = { content: '{"id":1}', contentType: 'application/json' };
      expect(render(props)).toEqual({ type: ORIGINAL, props, children: [] });
    } finally {
      Object.assign(JSON, { rawJSON });
    }
  });

  it('works from its source text alone, as @nestjs/swagger writes it into the page', () => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the page evaluates the source text: so does this test
    const fromSource = (new Function(`return (${exactJsonResponseBodyPlugin.toString()});`) as () => Plugin)();
    const shown = shownJson('{"categoryId":9223372036854775807,"tags":[]}', fromSource);
    expect(shown).toBe('{\n  "categoryId": 9223372036854775807,\n  "tags": []\n}');
  });
});
