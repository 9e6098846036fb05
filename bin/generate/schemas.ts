import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {
  BaseType,
  type Context,
  createFormatter,
  createParser,
  createProgram,
  DEFAULT_CONFIG,
  type Definition,
  SchemaGenerator,
  type SubNodeParser,
  type SubTypeFormatter,
} from 'ts-json-schema-generator'
import ts from 'typescript'
import {type CommandFile, generatedJson} from './commands.js'

/**
 * schemas/<topic>-<verb>.json: the JSON Schema of each command's `--json` document, from the type
 * its `run()` returns (ts-json-schema-generator over the sources). The results the base renders
 * stand for their documents: a `StreamedList<T>` prints a `StreamedDocument<T>`, an
 * `UnknownOutcome<T, D>` and a `Finished<T, D>` print their `D`, a `Printed<D>` printed its `D`
 * (src/base/results.ts). A command
 * whose run() returns nothing prints no document and has no schema, nor has one whose run() is
 * oclif's own (help, autocomplete).
 *
 * The API's own types (`Run`, which src/contract/openapi-types.ts names as
 * `components['schemas']['Run']`) are not read from their TypeScript (openapi-typescript's
 * `{…} & {[key: string]: unknown}`, which the generator turns into `never`): their schemas are the
 * OpenAPI document's, taken as they are.
 */

const RESULTS = 'src/base/results.ts'

/** A schema of the OpenAPI document (`components.schemas[name]`), where the TypeScript names one. */
class OpenApiSchemaType extends BaseType {
  constructor(readonly schema: string) {
    super()
  }
  getId(): string {
    return `openapi-schema-${this.schema}`
  }
}

/** `components['schemas']['Run']` (src/contract/openapi-types.ts). */
class OpenApiSchemaParser implements SubNodeParser {
  supportsNode(node: ts.Node): boolean {
    return schemaNameOf(node) !== undefined
  }
  createType(node: ts.Node, _context: Context): BaseType {
    return new OpenApiSchemaType(schemaNameOf(node) as string)
  }
}

function schemaNameOf(node: ts.Node): string | undefined {
  if (!ts.isIndexedAccessTypeNode(node) || !ts.isLiteralTypeNode(node.indexType) || !ts.isStringLiteral(node.indexType.literal))
    return undefined
  const object = node.objectType.getText().replaceAll("'", '"')
  return object === 'components["schemas"]' ? node.indexType.literal.text : undefined
}

// (a reference of the document's schemas to one another: the generator would refuse a `$ref` to a
// definition it did not make; `documentRefs` turns them into `$ref`s and adds the definitions)
const DOCUMENT_REF = '$documentRef'

/** The document's schema itself (so an intersection with it gets its members). */
class OpenApiSchemaFormatter implements SubTypeFormatter {
  constructor(private readonly schemas: Record<string, object>) {}
  supportsType(type: BaseType): boolean {
    return type instanceof OpenApiSchemaType
  }
  getDefinition(type: OpenApiSchemaType): Definition {
    const schema = this.schemas[type.schema]
    if (schema === undefined) throw new Error(`the OpenAPI document has no schema ${type.schema}`)
    return JSON.parse(JSON.stringify(schema).replace(/\{"\$ref":"#\/components\/schemas\/([^"]+)"\}/g, `{"${DOCUMENT_REF}":"$1"}`))
  }
  getChildren(): BaseType[] {
    return []
  }
}

/** A document with `$documentRef`s as `$ref`s to definitions, the document's schemas they name added. */
function documentRefs(document: {definitions?: Record<string, unknown>}, formatter: OpenApiSchemaFormatter): void {
  document.definitions ??= {}
  const definitions = document.definitions
  const pending = [document]
  while (pending.length > 0) {
    const node = pending.pop()
    for (const match of JSON.stringify(node).matchAll(new RegExp(`"\\${DOCUMENT_REF}":"([^"]+)"`, 'g'))) {
      if (definitions[match[1]] !== undefined) continue
      definitions[match[1]] = formatter.getDefinition(new OpenApiSchemaType(match[1]))
      pending.push(definitions[match[1]] as typeof document)
    }
  }
  const text = JSON.stringify(document).replace(new RegExp(`"\\${DOCUMENT_REF}":"([^"]+)"`, 'g'), '"$ref":"#/definitions/$1"')
  Object.assign(document, JSON.parse(text))
}

/** `runs:fork` → `schemas/runs-fork.json` */
export function schemaPath(id: string): string {
  return `schemas/${id.replaceAll(':', '-')}.json`
}

/** `runs:fork` → `RunsForkJson` (not the command class's own name) */
function typeName(id: string): string {
  return `${id
    .split(/[:-]/)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}Json`
}

interface Imported {
  /** absolute path of the module, without extension */
  module: string
  name: string
}

/** The `--json` document type of a command, as TypeScript text over imported names. */
interface DocumentType {
  text: string
  imports: Map<string, Imported>
}

function documentType(root: string, command: CommandFile): DocumentType | undefined {
  const source = ts.createSourceFile(command.file, readFileSync(command.file, 'utf8'), ts.ScriptTarget.Latest, true)
  const cls = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && (s.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword),
  )
  const run = cls?.members.find((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText(source) === 'run')
  // a command of oclif's plugins (help, autocomplete) keeps their run() and prints no document
  if (run === undefined) return undefined
  const annotation = run.type
  if (annotation === undefined) throw new Error(`${command.file}: run() must say what it returns (its --json document)`)
  if (!ts.isTypeReferenceNode(annotation) || annotation.typeName.getText(source) !== 'Promise' || !annotation.typeArguments) {
    throw new Error(`${command.file}: run() must return Promise<…>`)
  }
  const result = annotation.typeArguments[0]
  if (result.kind === ts.SyntaxKind.VoidKeyword) return undefined
  const members = ts.isUnionTypeNode(result) ? [...result.types] : [result]

  // where each name the document uses comes from: an import of the command file, or its own export
  const names = new Map<string, Imported>()
  const here = command.file.replace(/\.ts$/, '')
  for (const statement of source.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      statement.importClause?.namedBindings &&
      ts.isNamedImports(statement.importClause.namedBindings)
    ) {
      const module = resolve(dirname(command.file), (statement.moduleSpecifier as ts.StringLiteral).text).replace(/\.js$/, '')
      for (const element of statement.importClause.namedBindings.elements) {
        names.set(element.name.text, {module, name: (element.propertyName ?? element.name).text})
      }
    }
    if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      names.set(statement.name.text, {module: here, name: statement.name.text})
    }
  }
  names.set('StreamedDocument', {module: join(root, RESULTS).replace(/\.ts$/, ''), name: 'StreamedDocument'})

  const parts = members.map((member) => {
    if (!ts.isTypeReferenceNode(member)) return member.getText(source)
    const name = member.typeName.getText(source)
    const args = member.typeArguments?.map((arg) => arg.getText(source)) ?? []
    if (name === 'StreamedList') return `StreamedDocument<${args[0]}>`
    if (name === 'UnknownOutcome' || name === 'Finished') {
      if (args.length < 2) throw new Error(`${command.file}: ${name}<…> needs its --json document type as its second argument`)
      return args[1]
    }
    if (name === 'Printed') return args[0]
    return member.getText(source)
  })
  const text = parts.join(' | ')
  const imports = new Map<string, Imported>()
  for (const word of text.match(/\b[A-Za-z_]\w*\b/g) ?? []) {
    const found = names.get(word)
    if (found !== undefined) imports.set(word, found)
  }
  return {text, imports}
}

/**
 * The files amctl writes for people to keep, whose schema is published beside the commands' (the
 * same generator, from the type that reads and writes them): a file of this amctl is closed (a
 * member it does not know is an error when it is read), so its objects are too.
 */
export const FILE_FORMATS = [
  {
    path: 'schemas/baseline-file.json',
    title: 'amctl baseline file (amctl evals baseline save, --baseline-file)',
    module: 'src/gate/baseline-file',
    name: 'BaselineFile',
  },
] as const

/**
 * The schemas the code itself reads, bundled into it: of a document amctl once wrote and reads
 * back (`amctl evals comment` checks a wait's `gate` against it before rendering). Open, as the
 * documents are: a member a later amctl adds is no error.
 */
export const CODE_SCHEMAS = [
  {
    path: 'src/gate/reports/gate-result.schema.json',
    title: "the gate's result in a wait's --json document (its `gate` member)",
    module: 'src/gate/result',
    name: 'ReportedResult',
  },
] as const

/** Every object of a schema closed: `additionalProperties: false` (FILE_FORMATS). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema))
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, closed(v)])) : closed(value)
  if (out.type === 'object' && out.properties !== undefined) out.additionalProperties = false
  return out
}

/**
 * Every command's schema file, and each of FILE_FORMATS, by path. `commands` are the command
 * files; the schemas are made in one TypeScript program over a module that names each document type.
 */
export function schemaFiles(
  root: string,
  commands: readonly CommandFile[],
  firstLine: (id: string) => string,
  formatLine: (format: {name: string; module: string}) => string,
): Map<string, string> {
  const api = JSON.parse(readFileSync(join(root, 'src/contract/openapi.json'), 'utf8')) as {components: {schemas: Record<string, object>}}
  const entries: string[] = []
  const made: {id: string; type: string}[] = []
  for (const [i, format] of FILE_FORMATS.entries()) {
    entries.push(`import type {${format.name} as Format${i}_${format.name}} from '${join(root, format.module)}.js'`)
    entries.push(`export interface Format${i}Json {`, `  document: Format${i}_${format.name}`, '}')
  }
  for (const [i, code] of CODE_SCHEMAS.entries()) {
    entries.push(`import type {${code.name} as Code${i}_${code.name}} from '${join(root, code.module)}.js'`)
    entries.push(`export interface Code${i}Json {`, `  document: Code${i}_${code.name}`, '}')
  }
  for (const command of commands) {
    const document = documentType(root, command)
    if (document === undefined) continue
    const type = typeName(command.id)
    const prefix = `${type}_`
    let text = document.text
    for (const [local, {module, name}] of document.imports) {
      entries.push(`import type {${name} as ${prefix}${local}} from '${module}.js'`)
      text = text.replace(new RegExp(`\\b${local}\\b`, 'g'), `${prefix}${local}`)
    }
    // (an interface: the generator defines it, where an alias of another name would vanish)
    entries.push(`export interface ${type} {`, `  document: ${text}`, '}')
    made.push({id: command.id, type})
  }
  // (not under node_modules/: the generator takes no root from there)
  const scratch = mkdtempSync(join(tmpdir(), 'amctl-schemas-'))
  try {
    const entry = join(scratch, 'documents.ts')
    writeFileSync(entry, `${entries.join('\n')}\n`)
    const config = {
      ...DEFAULT_CONFIG,
      path: entry,
      tsconfig: join(root, 'tsconfig.json'),
      skipTypeCheck: true,
      expose: 'export' as const,
      topRef: true,
      jsDoc: 'basic' as const,
      // a server may add members: a document's objects are open, as the API's are
      additionalProperties: true,
      sortProps: true,
    }
    const program = createProgram(config)
    const documentSchemas = new OpenApiSchemaFormatter(api.components.schemas)
    const generator = new SchemaGenerator(
      program,
      createParser(program, config, (parser) => parser.addNodeParser(new OpenApiSchemaParser())),
      createFormatter(config, (formatter) => formatter.addTypeFormatter(documentSchemas)),
      config,
    )
    // one schema of every document at once (the generator's definitions are not meant to be
    // shared between createSchema calls), then each command's own: its document and the
    // definitions it refers to
    const all = generator.createSchema('*') as {$schema: string; definitions: Record<string, {properties: {document: object}}>}
    const files = new Map<string, string>()
    for (const {id, type} of made) {
      if (all.definitions[type] === undefined) throw new Error(`no ${type} among ${Object.keys(all.definitions).join(', ')}`)
      const root = all.definitions[type].properties.document
      const definitions: Record<string, unknown> = {}
      for (const match of JSON.stringify(root).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) {
        Object.assign(definitions, reachable(all.definitions, decodeURIComponent(match[1])))
      }
      const title = `amctl ${id.replaceAll(':', ' ')} --json`
      const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)))
      const document: {definitions?: Record<string, unknown>; [key: string]: unknown} = {
        $schema: all.$schema,
        title,
        ...root,
        definitions: sorted,
      }
      documentRefs(document, documentSchemas)
      if (Object.keys(document.definitions ?? {}).length === 0) delete document.definitions
      else document.definitions = Object.fromEntries(Object.entries(document.definitions ?? {}).sort(([a], [b]) => a.localeCompare(b)))
      files.set(schemaPath(id), generatedJson(firstLine(id), document))
    }
    for (const [i, format] of FILE_FORMATS.entries()) {
      const type = `Format${i}Json`
      const root = all.definitions[type].properties.document
      const definitions: Record<string, unknown> = {}
      for (const match of JSON.stringify(root).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) {
        Object.assign(definitions, reachable(all.definitions, decodeURIComponent(match[1])))
      }
      const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)))
      const document = closed({$schema: all.$schema, title: format.title, ...root, definitions: sorted}) as Record<string, unknown>
      files.set(format.path, generatedJson(formatLine(format), document))
    }
    for (const [i, code] of CODE_SCHEMAS.entries()) {
      const root = all.definitions[`Code${i}Json`].properties.document
      const definitions: Record<string, unknown> = {}
      for (const match of JSON.stringify(root).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) {
        Object.assign(definitions, reachable(all.definitions, decodeURIComponent(match[1])))
      }
      const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)))
      const document: {definitions?: Record<string, unknown>; [key: string]: unknown} = {
        $schema: all.$schema,
        title: code.title,
        ...root,
        definitions: sorted,
      }
      documentRefs(document, documentSchemas)
      files.set(code.path, generatedJson(formatLine(code), document))
    }
    return files
  } finally {
    rmSync(scratch, {recursive: true, force: true})
  }
}

/** The definitions `name` needs: itself and every definition its `$ref`s reach. */
function reachable(definitions: Record<string, unknown>, name: string): Record<string, unknown> {
  const found: Record<string, unknown> = {}
  const visit = (key: string): void => {
    if (key in found) return
    // (`unknown`, amctl api's document, has no definition: any JSON)
    const definition = definitions[key] ?? {}
    found[key] = definition
    for (const match of JSON.stringify(definition).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) visit(decodeURIComponent(match[1]))
  }
  visit(name)
  return found
}
