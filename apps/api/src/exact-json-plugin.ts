/** The parts of Swagger UI's plugin system the plugin uses (swagger-ui docs: "Plugin API"). */
interface SwaggerUiSystem {
  readonly React: { createElement(type: unknown, props: object | null, ...children: unknown[]): unknown };
  getComponent(name: string, container?: boolean): unknown;
}

interface ResponseBodyProps {
  readonly content: unknown;
  readonly contentType?: string;
}

/** Shows bodies' exact digits (docs/contract.md). Written into the page by toString(): nothing from outside its own body. */
export function exactJsonResponseBodyPlugin() {
  /** JSON with the source text of each value (TC39's "JSON.parse source text access": Node 21 on, current browsers). */
  const json = JSON as unknown as {
    parse(text: string, reviver: (key: string, value: unknown, context?: { source?: string }) => unknown): unknown;
    stringify(value: unknown, replacer: null, space: number): string;
    rawJSON?: (this: void, text: string) => unknown;
  };

  /** The body indented, every literal as sent; undefined when it is not JSON or the browser lacks JSON.rawJSON. */
  function exactlyIndented(text: string): string | undefined {
    const { rawJSON } = json;
    if (rawJSON === undefined) return undefined;
    try {
      return json.stringify(
        json.parse(text, (_key, value, context) => (context?.source === undefined ? value : rawJSON(context.source))),
        null,
        2,
      );
    } catch {
      return undefined;
    }
  }

  return {
    wrapComponents: {
      responseBody: (Original: unknown, system: SwaggerUiSystem) =>
        function ExactJsonResponseBody(props: ResponseBodyProps) {
          const { content, contentType } = props;
          const shown = /json/i.test(contentType ?? '') && typeof content === 'string' ? exactlyIndented(content) : undefined;
          // Anything else (not JSON, not valid, a download, an older browser) is left to Swagger UI.
          if (shown === undefined) return system.React.createElement(Original, props);
          const HighlightCode = system.getComponent('HighlightCode', true);
          const code = { language: 'json', downloadable: true, fileName: `response_${Date.now()}.json`, canCopy: true };
          return system.React.createElement(
            'div',
            null,
            system.React.createElement('h5', null, 'Response body'),
            system.React.createElement(HighlightCode, code, shown),
          );
        },
    },
  };
}
