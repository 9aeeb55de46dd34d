// Swagger UI shows a JSON response body as JSON.stringify(JSON.parse(body), null, 2): every
// integer beyond 2^53 comes out rounded (9223372036854775807 as 9223372036854776000), while
// the service sends ids and categoryIds exactly over the whole int64 range. This plugin
// shows the body as the service sent it, only indented, by JSON's own source text access.

/** The parts of Swagger UI's plugin system the plugin uses (swagger-ui docs: "Plugin API"). */
interface SwaggerUiSystem {
  readonly React: { createElement(type: unknown, props: object | null, ...children: unknown[]): unknown };
  getComponent(name: string, container?: boolean): unknown;
}

/** The properties Swagger UI gives its ResponseBody component. */
interface ResponseBodyProps {
  readonly content: unknown;
  readonly contentType?: string;
}

/**
 * A Swagger UI plugin: JSON response bodies are shown with their exact digits. @nestjs/swagger
 * writes functions given in swaggerOptions into the page with Function.prototype.toString, so
 * this one must be self-contained: nothing from outside its own body, no imports.
 */
export function exactJsonResponseBodyPlugin() {
  /** JSON with the source text of each value (TC39's "JSON.parse source text access": Node 21 on, current browsers). */
  const json = JSON as unknown as {
    parse(text: string, reviver: (key: string, value: unknown, context?: { source?: string }) => unknown): unknown;
    stringify(value: unknown, replacer: null, space: number): string;
    rawJSON?: (this: void, text: string) => unknown;
  };

  /**
   * The body laid out as JSON.stringify(value, null, 2) lays it out, every literal as written (no
   * digit lost); undefined when it is not JSON or the browser cannot keep literals as written.
   */
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
