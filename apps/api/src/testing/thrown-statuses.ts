import type { Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import { DECORATORS } from '@nestjs/swagger';
import { ApiException } from '@petstore/http-errors';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

// What each documented route handler throws, read from its source: the statuses it may answer that no test need trigger.
// A handler's own throws count, and those of the methods of its class it calls (this.createOnce(…)).

/** One throw that answers a status its operation does not document, or whose status cannot be read; the fix is in the text. */
export type ThrowProblem = string;

/** The problems of every route handler of the documented controllers in `file` (ApiExcludeController ones are skipped). */
export async function thrownStatusProblems(file: string): Promise<{ handlers: string[]; problems: ThrowProblem[] }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const exports = (await import(file)) as Record<string, Type>;
  const handlers: string[] = [];
  const problems: ThrowProblem[] = [];
  for (const declaration of source.statements.filter(ts.isClassDeclaration)) {
    const controller = declaration.name && exports[declaration.name.text];
    if (!controller || Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)) continue;
    const methods = new Map(
      declaration.members.filter(ts.isMethodDeclaration).map((method) => [method.name.getText(source), method] as const),
    );
    for (const name of methods.keys()) {
      const handler = (controller.prototype as Record<string, object>)[name];
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const route = `${controller.name}.${name}`;
      handlers.push(route);
      const documented = Object.keys(Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {});
      for (const thrown of throwsOf(name, methods)) {
        const status = await statusOf(thrown, file, source);
        const text = thrown.getText(source);
        if (status === undefined) {
          problems.push(
            `${route} throws \`${text}\`, whose status cannot be read from its source: throw a refusal made by its feature ` +
              '(as PetsRefusal.keyReused()) or new ApiException(code, <status>, message)',
          );
        } else if (!documented.includes(String(status))) {
          problems.push(
            `${route} throws \`${text}\` (${status}), which its operation does not document: ` +
              `add ApiRefusal(${text}, '<when it is answered>') to the handler's documentation decorator`,
          );
        }
      }
    }
  }
  return { handlers, problems };
}

/** The thrown expressions of a method and of the methods of its class it calls, each method once. */
function throwsOf(name: string, methods: ReadonlyMap<string, ts.MethodDeclaration>, seen = new Set<string>()): ts.Expression[] {
  const method = methods.get(name);
  if (!method || seen.has(name)) return [];
  seen.add(name);
  const thrown: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isThrowStatement(node)) thrown.push(node.expression);
    const called = ts.isCallExpression(node) ? node.expression : undefined;
    if (called && ts.isPropertyAccessExpression(called) && called.expression.kind === ts.SyntaxKind.ThisKeyword) {
      thrown.push(...throwsOf(called.name.text, methods, seen));
    }
    ts.forEachChild(node, visit);
  };
  visit(method);
  return thrown;
}

/** `new ApiException(code, 409, …)`, or a call of a refusal factory the file imports (`PetsRefusal.keyReused()`). */
async function statusOf(thrown: ts.Expression, file: string, source: ts.SourceFile): Promise<number | undefined> {
  if (ts.isNewExpression(thrown) && thrown.expression.getText(source) === ApiException.name) {
    const status = thrown.arguments?.[1];
    return status && ts.isNumericLiteral(status) ? Number(status.text) : undefined;
  }
  if (!ts.isCallExpression(thrown) || thrown.arguments.length > 0 || !ts.isPropertyAccessExpression(thrown.expression)) return undefined;
  const { expression: owner, name } = thrown.expression;
  if (!ts.isIdentifier(owner)) return undefined;
  // Imported, or exported by the controller's own file.
  const from = importedFrom(owner.text, source) ?? file;
  const module = (await import(from.startsWith('.') ? resolve(dirname(file), from) : from)) as Record<string, unknown>;
  const factory = (module[owner.getText(source)] as Record<string, unknown> | undefined)?.[name.text];
  const refusal: unknown = typeof factory === 'function' ? (factory as () => unknown)() : undefined;
  return refusal instanceof ApiException ? refusal.getStatus() : undefined;
}

function importedFrom(identifier: string, source: ts.SourceFile): string | undefined {
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings) && bindings.elements.some((element) => element.name.text === identifier)) {
      return (statement as ts.ImportDeclaration).moduleSpecifier.getText(source).slice(1, -1);
    }
  }
  return undefined;
}
