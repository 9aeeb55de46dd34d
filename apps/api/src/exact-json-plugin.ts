// Swagger UI shows a JSON response body as JSON.stringify(JSON.parse(body), null, 2): every
// integer beyond 2^53 comes out rounded (9223372036854775807 as 9223372036854776000), while
// the service sends ids and categoryIds exactly over the whole int64 range. This plugin
// shows the body as the service sent it, only indented.

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
  /** Whether `text` is one JSON value (what Swagger UI checks before it formats a body as JSON). */
  function isJson(text: string): boolean {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }

  /** Where the whitespace after `index` ends. */
  function skipWhitespace(text: string, index: number): number {
    let next = index;
    while (next < text.length && ' \t\n\r'.includes(text[next])) next++;
    return next;
  }

  /**
   * Valid JSON text laid out as JSON.stringify(value, null, 2) lays it out, but with every
   * literal as written: numbers are never converted, so no digit is lost.
   */
  function indentJson(text: string): string {
    let out = '';
    let depth = 0;
    const newline = () => '\n' + '  '.repeat(depth);
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (char === '"') {
        // A string, escapes included, goes through unchanged.
        let end = i + 1;
        while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
        out += text.slice(i, end + 1);
        i = end;
      } else if (char === '{' || char === '[') {
        const next = skipWhitespace(text, i + 1);
        // JSON.stringify writes an empty object or array as {} or [].
        if (text[next] === '}' || text[next] === ']') {
          out += char + text[next];
          i = next;
        } else {
          depth++;
          out += char + newline();
        }
      } else if (char === '}' || char === ']') {
        depth--;
        out += newline() + char;
      } else if (char === ',') {
        out += ',' + newline();
      } else if (char === ':') {
        out += ': ';
      } else if (!' \t\n\r'.includes(char)) {
        out += char;
      }
    }
    return out;
  }

  return {
    wrapComponents: {
      responseBody: (Original: unknown, system: SwaggerUiSystem) =>
        function ExactJsonResponseBody(props: ResponseBodyProps) {
          const { content, contentType } = props;
          // Anything else (not JSON, not valid, a download) is left to Swagger UI.
          if (!/json/i.test(contentType ?? '') || typeof content !== 'string' || !isJson(content)) {
            return system.React.createElement(Original, props);
          }
          const HighlightCode = system.getComponent('HighlightCode', true);
          const code = { language: 'json', downloadable: true, fileName: `response_${Date.now()}.json`, canCopy: true };
          return system.React.createElement(
            'div',
            null,
            system.React.createElement('h5', null, 'Response body'),
            system.React.createElement(HighlightCode, code, indentJson(content)),
          );
        },
    },
  };
}
