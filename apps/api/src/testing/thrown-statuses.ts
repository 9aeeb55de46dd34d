import type { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { routeHandlerNames } from '@petstore/http';
import { ApiException, toErrorResponse } from '@petstore/http-errors';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

// What each documented route handler throws, read from its source: the statuses it may answer that no test need trigger.
// A handler's own throws count, those of the methods of its class it calls (this.createOnce(…)), and those of the methods
// of the services it calls (this.pets.get(…)), with the methods of their classes.

/** One throw that answers a status its operation does not document, or whose status cannot be read; the fix is in the text. */
export type ThrowProblem = string;

/** A class as written: its file, parsed, and its methods by name. */
interface ClassSource {
  readonly file: string;
  readonly source: ts.SourceFile;
  readonly declaration: ts.ClassDeclaration;
  readonly methods: ReadonlyMap<string, ts.MethodDeclaration>;
}

interface Thrown {
  readonly expression: ts.Expression;
  /** The class whose method throws it: the controller, or a service it calls. */
  readonly owner: ClassSource;
}

/** The problems of every route handler of the documented controllers in `file` (ApiExcludeController ones are skipped). */
export async function thrownStatusProblems(file: string): Promise<{ handlers: string[]; problems: ThrowProblem[] }> {
  const source = parse(file);
  const exports = (await import(file)) as Record<string, Type>;
  const handlers: string[] = [];
  const problems: ThrowProblem[] = [];
  for (const declaration of source.statements.filter(ts.isClassDeclaration)) {
    const controller = declaration.name && exports[declaration.name.text];
    if (!controller || Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)) continue;
    const owner = classSource(file, source, declaration);
    for (const name of routeHandlerNames(controller)) {
      const handler = (controller.prototype as Record<string, object>)[name];
      const route = `${controller.name}.${name}`;
      handlers.push(route);
      const documented = Object.keys(Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {});
      for (const thrown of throwsOf(owner, name, true)) {
        const problem = problemOf(route, thrown, await statusOf(thrown), documented, owner);
        if (problem) problems.push(problem);
      }
    }
  }
  return { handlers, problems };
}

function problemOf(route: string, thrown: Thrown, status: number | undefined, documented: string[], controller: ClassSource) {
  const text = thrown.expression.getText(thrown.owner.source);
  const inService = thrown.owner === controller ? '' : ` in ${thrown.owner.declaration.name?.text}`;
  // A service's unreadable throw is most often a rethrow: only the handler's own must be readable.
  if (status === undefined) {
    return inService
      ? undefined
      : `${route} throws \`${text}\`, whose status cannot be read from its source: throw a refusal made by its feature ` +
          '(as PetsRefusal.keyReused()), new ApiException(code, <status>, message) or a domain error';
  }
  if (documented.includes(String(status))) return undefined;
  const fix = inService ? `ApiErrorResponse(${status}, …)` : `ApiRefusal(${text}, '<when it is answered>')`;
  return (
    `${route} throws \`${text}\`${inService} (${status}), which its operation does not document: ` +
    `add ${fix} to the handler's documentation decorator`
  );
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function classSource(file: string, source: ts.SourceFile, declaration: ts.ClassDeclaration): ClassSource {
  const methods = declaration.members.filter(ts.isMethodDeclaration).map((method) => [method.name.getText(source), method] as const);
  return { file, source, declaration, methods: new Map(methods) };
}

/** The thrown expressions of a method, of the methods of its class it calls and, from a handler, of its services' methods. */
function throwsOf(owner: ClassSource, name: string, fromHandler: boolean, seen = new Set<ts.Node>()): Thrown[] {
  const method = owner.methods.get(name);
  if (!method || seen.has(method)) return [];
  seen.add(method);
  const thrown: Thrown[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isThrowStatement(node)) thrown.push({ expression: node.expression, owner });
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression: receiver, name: called } = node.expression;
      if (receiver.kind === ts.SyntaxKind.ThisKeyword) thrown.push(...throwsOf(owner, called.text, fromHandler, seen));
      // this.<service>.<method>(…): one step out of the controller, into its feature's services.
      if (fromHandler && ts.isPropertyAccessExpression(receiver) && receiver.expression.kind === ts.SyntaxKind.ThisKeyword) {
        const service = injectedClass(owner, receiver.name.text);
        if (service) thrown.push(...throwsOf(service, called.text, false, seen));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(method);
  return thrown;
}

/** The class of a constructor parameter property (`private readonly pets: PetsService`) imported from a file of its lib. */
function injectedClass(owner: ClassSource, field: string): ClassSource | undefined {
  const constructor = owner.declaration.members.find(ts.isConstructorDeclaration);
  const parameter = constructor?.parameters.find((candidate) => candidate.name.getText(owner.source) === field);
  const typeName = parameter?.type && ts.isTypeReferenceNode(parameter.type) ? parameter.type.typeName.getText(owner.source) : undefined;
  const from = typeName && importedFrom(typeName, owner.source);
  const file = from?.startsWith('.') ? `${resolve(dirname(owner.file), from)}.ts` : undefined;
  if (!file || !existsSync(file)) return undefined;
  const source = parse(file);
  const declaration = source.statements.find((statement) => ts.isClassDeclaration(statement) && statement.name?.text === typeName);
  return declaration && classSource(file, source, declaration as ts.ClassDeclaration);
}

/**
 * `new ApiException(code, 409, …)`; `new SomeError(…)` of a class the file imports or exports, made without arguments; or a
 * call of a refusal factory it imports or exports (`PetsRefusal.keyReused()`): the status the Error body filter answers.
 */
async function statusOf({ expression, owner }: Thrown): Promise<number | undefined> {
  if (ts.isNewExpression(expression) && ts.isIdentifier(expression.expression)) {
    if (expression.expression.text === ApiException.name) {
      const status = expression.arguments?.[1];
      return status && ts.isNumericLiteral(status) ? Number(status.text) : undefined;
    }
    const errorClass = await exported(expression.expression.text, owner);
    return answered(() => (typeof errorClass === 'function' ? Reflect.construct(errorClass, []) : undefined));
  }
  if (!ts.isCallExpression(expression) || expression.arguments.length > 0 || !ts.isPropertyAccessExpression(expression.expression))
    return undefined;
  const { expression: factories, name } = expression.expression;
  if (!ts.isIdentifier(factories)) return undefined;
  const factory = ((await exported(factories.text, owner)) as Record<string, unknown> | undefined)?.[name.text];
  return answered(() => (typeof factory === 'function' ? (factory as () => unknown)() : undefined));
}

/** What an identifier names, imported by the class's file or exported by it. */
async function exported(identifier: string, { file, source }: ClassSource): Promise<unknown> {
  const from = importedFrom(identifier, source) ?? file;
  const module = (await import(from.startsWith('.') ? resolve(dirname(file), from) : from)) as Record<string, unknown>;
  return module[identifier] ?? (globalThis as Record<string, unknown>)[identifier];
}

function answered(make: () => unknown): number | undefined {
  try {
    const error = make();
    return error instanceof Error ? toErrorResponse(error).status : undefined;
  } catch {
    return undefined;
  }
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
