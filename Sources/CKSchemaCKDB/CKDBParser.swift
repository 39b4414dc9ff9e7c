import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// Reads Apple's CloudKit Schema Language (`.ckdb`, what `cktool export-schema` writes)
/// into the schema model.
///
/// The grammar is Apple's ("Integrating a Text-Based Schema into Your Workflow",
/// https://developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow):
///
/// ```
/// create-schema:  DEFINE SCHEMA [ { create-role | record-type } ";" ] ...
/// create-role:    CREATE ROLE %role-name%
/// record-type:    RECORD TYPE %type-name% ( { field | GRANT perms TO role } ["," ...] )
/// data-type:      primitive-type | LIST "<" primitive-type ">"
/// ```
///
/// The parser recovers after an error and reports every problem in the file at once,
/// each with `file:line:col` and what was expected. It never traps on malformed input.
public enum CKDBParser {
    /// `.ckdb` files larger than this are refused before parsing.
    /// The same limit as every schema file (`InputFile.schemaLimit`).
    public static let maxFileSize = InputFile.schemaLimit
    /// After this many errors the parser stops (the rest is most likely noise).
    public static let maxErrors = 100

    /// Reads and parses a `.ckdb` file.
    /// - Throws: `InputError` with every problem found (unreadable file, bad UTF-8, syntax).
    public static func read(path: String) throws(InputError) -> Schema {
        let data = try InputFile.read(path: path, limit: maxFileSize)
        return try parse(data, file: path)
    }

    /// Parses `.ckdb` bytes; input that is not UTF-8 text (binary data) is refused with one diagnostic.
    /// - Parameter file: the name diagnostics and origins carry.
    public static func parse(_ data: Data, file: String) throws(InputError) -> Schema {
        let ascii = isASCII(data)
        if !ascii, let bad = TextBytes.firstInvalidUTF8(data) {
            let (line, col) = TextBytes.lineColumn(ofByte: bad, in: data)
            let byte = String(data[data.startIndex + bad], radix: 16, uppercase: true)
            throw InputError(Diagnostic(
                rule: InputRules.notUTF8,
                "the file is not UTF-8 text (byte 0x\(byte) at offset \(bad)); a .ckdb schema is UTF-8 text",
                at: SourceLocation(file: file, line: line, column: col),
                fix: "check that this is the schema cktool export-schema wrote, saved as UTF-8"))
        }
        let (schema, diagnostics) = data.withUnsafeBytes { raw in
            run(raw.bindMemory(to: UInt8.self), file: file, isASCII: ascii)
        }
        if !diagnostics.isEmpty { throw InputError(diagnostics) }
        return schema
    }

    /// True when every byte is ASCII (then the text is valid UTF-8): eight bytes at a time.
    private static func isASCII(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let n = raw.count
            var i = 0
            while i + 8 <= n {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                i += 8
            }
            while i < n {
                if raw[i] & 0x80 != 0 { return false }
                i += 1
            }
            return true
        }
    }

    /// Parses `.ckdb` text.
    /// - Parameter file: the name diagnostics and origins carry.
    /// - Throws: `InputError` with every problem found.
    public static func parse(_ text: String, file: String) throws(InputError) -> Schema {
        var text = text
        let (schema, diagnostics) = text.withUTF8 { run($0, file: file) }
        if !diagnostics.isEmpty { throw InputError(diagnostics) }
        return schema
    }

    /// True when `text` looks like a `.ckdb` schema: after comments, its first word is
    /// DEFINE, RECORD or CREATE (any case). Used to recognise a schema source by content.
    public static func looksLikeCKDB(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var lexer = CKDBLexer(bytes: raw.bindMemory(to: UInt8.self), file: "")
            let t = lexer.next()
            return t.isKeyword(.define) || t.isKeyword(.record) || t.isKeyword(.create)
        }
    }

    private static func run(_ bytes: UnsafeBufferPointer<UInt8>, file: String, isASCII: Bool = false) -> (Schema, [Diagnostic]) {
        var engine = Engine(lexer: CKDBLexer(bytes: bytes, file: file, isASCII: isASCII))
        var schema = engine.parseSchema()
        markDeprecated(&schema, engine.lexer.deprecationComments)
        var all = engine.diagnostics + engine.lexer.diagnostics
        if all.count > 1 { all = all.sortedByLocation() }
        if let stop = engine.stopDiagnostic { all.append(stop) }
        return (schema, all)
    }

    /// The `// DEPRECATED` convention: a field is deprecated when such a comment stands alone on
    /// the line just above it, or ends the field's own line. The language has no word for it.
    private static func markDeprecated(_ schema: inout Schema, _ comments: [(line: Int, alone: Bool)]) {
        guard !comments.isEmpty else { return }
        var above = Set<Int>(), same = Set<Int>()
        for c in comments {
            if c.alone { above.insert(c.line + 1) } else { same.insert(c.line) }
        }
        for t in schema.recordTypes.indices {
            for f in schema.recordTypes[t].fields.indices {
                guard let line = schema.recordTypes[t].fields[f].origin.location?.line else { continue }
                if above.contains(line) || same.contains(line) { schema.recordTypes[t].fields[f].isDeprecated = true }
            }
        }
    }

    /// The closest candidate for "did you mean" (case-insensitive), or nil.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty, word.utf8.count <= 64 else { return nil }
        return Suggest.closest(to: word, in: candidates)
    }
}

// MARK: - The recursive-descent parser with error recovery

private struct Engine {
    var lexer: CKDBLexer
    var token: CKDBToken
    private var peeked: CKDBToken?
    var diagnostics: [Diagnostic] = []
    /// Set when the error limit is reached; reported after all the others.
    var stopDiagnostic: Diagnostic?
    private var stopped = false

    private var schema: Schema
    private var recordTypeLines: [String: Int] = [:]
    private var createdRoles: [String: Int] = [:]
    private var roleReferences: [(name: String, location: SourceLocation)] = []
    /// The field names of the record type being read (kept across types to reuse its storage).
    private var seen = SeenNames()
    /// Where each role's grant is in the record type being read.
    private var grantIndex: [String: Int] = [:]
    private var lastFieldCount = 8

    static let typeWords = ["ASSET", "BYTES", "DOUBLE", "INT64", "LOCATION", "NUMBER", "REFERENCE", "STRING", "TIMESTAMP", "LIST", "ENCRYPTED"]
    static let optionWords = ["QUERYABLE", "SORTABLE", "SEARCHABLE"]
    static let permissionWords = ["READ", "CREATE", "WRITE"]

    init(lexer: CKDBLexer) {
        let file = lexer.file
        self.lexer = lexer
        self.token = CKDBToken(kind: .endOfFile, start: 0, end: 0, line: 1, lineStart: 0)
        self.schema = Schema(origin: Origin(SourceLocation(file: file, line: 1, column: 1)))
        self.schema.notation = NotationTag(.ckdb)
    }

    // MARK: Tokens

    private mutating func pull() -> CKDBToken {
        while true {
            let t = lexer.next()
            switch t.kind {
            case .invalid:
                let shown = printable(t)
                error(CKDBRules.invalidCharacter, "unexpected character\(t.end - t.start > 1 ? "s" : "") \(shown) outside a quoted name",
                      at: lexer.location(of: t), fix: "names are letters, digits and '_'; quote other names with \"...\"; check that this is a text .ckdb file")
                continue
            case .quoted where t.isUnterminated:
                error(CKDBRules.unterminated, "unterminated quoted name: no closing '\"' after \"\(clip(lexer.text(of: t)))",
                      at: lexer.location(of: t), fix: "close the name with '\"' on the same line")
            default:
                break
            }
            return t
        }
    }

    private mutating func advance() {
        if let p = peeked {
            token = p
            peeked = nil
        } else {
            token = pull()
        }
    }

    private mutating func peek() -> CKDBToken {
        if let p = peeked { return p }
        let p = pull()
        peeked = p
        return p
    }

    private func text(_ t: CKDBToken) -> String { lexer.text(of: t) }
    private func location(_ t: CKDBToken) -> SourceLocation { lexer.location(of: t) }

    private func clip(_ s: String) -> String { Self.clip(s) }

    /// A name shortened for a message (at most 40 scalars).
    static func clip(_ s: String) -> String {
        if s.utf8.count <= 40 { return s }
        return s.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(40))) + "..." : s
    }

    /// How a parsed field or grant is named in "expected ',' or ')' after X"; built only when needed.
    /// A field is named by its name's token (its text is made only for the message).
    enum ItemLabel {
        case field(CKDBToken)
        case grant([Permission], String)
    }

    private func describe(_ item: ItemLabel) -> String {
        switch item {
        case .field(let name): "field \"\(clip(text(name)))\""
        case .grant(let permissions, let role): "GRANT \(Self.spell(permissions)) TO \"\(Self.clip(role))\""
        }
    }

    static func spell(_ permissions: [Permission]) -> String {
        permissions.map { $0.rawValue.uppercased() }.joined(separator: ", ")
    }

    private func printable(_ t: CKDBToken) -> String {
        let raw = lexer.text(of: t)
        var out = ""
        for u in raw.unicodeScalars.prefix(12) {
            if u.value < 0x20 || u.value == 0x7F {
                out += "U+" + String(u.value, radix: 16, uppercase: true).leftPadded(4)
                out += " "
            } else {
                out.unicodeScalars.append(u)
            }
        }
        if raw.unicodeScalars.count > 12 { out += "..." }
        return "'" + out.trimmingCharacters(in: .whitespaces) + "'"
    }

    /// How a token is named in "found X".
    private func describe(_ t: CKDBToken) -> String {
        switch t.kind {
        case .word, .quoted: "\"\(clip(text(t)))\""
        case .leftParen: "'('"
        case .rightParen: "')'"
        case .comma: "','"
        case .semicolon: "';'"
        case .less: "'<'"
        case .greater: "'>'"
        case .invalid: printable(t)
        case .endOfFile: "end of file"
        }
    }

    private func didYouMean(_ t: CKDBToken, _ candidates: [String]) -> String {
        guard t.isName, let s = CKDBParser.suggestion(for: text(t), among: candidates) else { return "" }
        return "; did you mean \(s)?"
    }

    private mutating func error(_ rule: RuleInfo, _ message: String, at location: SourceLocation, fix: String? = nil) {
        guard !stopped else { return }
        if diagnostics.count + lexer.diagnostics.count >= CKDBParser.maxErrors {
            stopDiagnostic = .error(rule, "too many errors (\(CKDBParser.maxErrors)); stopping here", at: location,
                                    fix: "fix the errors above and run again")
            stopped = true
            return
        }
        diagnostics.append(.error(rule, message, at: location, fix: fix))
    }

    private mutating func syntax(_ expected: String, _ fix: String? = nil, suggest: [String] = []) {
        error(CKDBRules.syntax, "expected \(expected), found \(describe(token))\(didYouMean(token, suggest))", at: location(token), fix: fix)
    }

    /// RECORD TYPE or CREATE ROLE at the current token: where a statement starts.
    private mutating func atStatementStart() -> Bool {
        guard token.kind == .word else { return false }
        if token.isKeyword(.record) { return peek().isKeyword(.type) }
        if token.isKeyword(.create) { return peek().isKeyword(.role) }
        if token.isKeyword(.define) { return peek().isKeyword(.schema) }
        return false
    }

    /// Skips to the end of the current statement (past its `;`) or to the next statement.
    private mutating func skipStatement() {
        while token.kind != .endOfFile, !stopped {
            if token.kind == .semicolon { advance(); return }
            if atStatementStart() { return }
            advance()
        }
    }

    /// Skips the rest of a broken field or grant: to the next `,` or `)` at this level.
    private mutating func skipItem() {
        var depth = 0
        while token.kind != .endOfFile, !stopped {
            switch token.kind {
            case .leftParen: depth += 1
            case .rightParen:
                if depth == 0 { return }
                depth -= 1
            case .comma where depth == 0: return
            case .semicolon: return
            case .word where depth == 0 && atStatementStart(): return
            default: break
            }
            advance()
        }
    }

    // MARK: Grammar

    mutating func parseSchema() -> Schema {
        advance()
        if token.isKeyword(.define) {
            advance()
            if token.isKeyword(.schema) { advance() } else { syntax("SCHEMA after DEFINE", suggest: ["SCHEMA"]) }
        } else {
            syntax("DEFINE SCHEMA at the start of the schema", "begin the file with DEFINE SCHEMA", suggest: ["DEFINE"])
        }
        while token.kind != .endOfFile, !stopped {
            if token.isKeyword(.record) {
                parseRecordType()
            } else if token.isKeyword(.create) {
                parseRole()
            } else if token.kind == .semicolon {
                advance()
            } else if token.isKeyword(.define) {
                error(CKDBRules.syntax, "DEFINE SCHEMA appears a second time", at: location(token), fix: "remove it; one DEFINE SCHEMA starts the file")
                advance()
                if token.isKeyword(.schema) { advance() }
            } else {
                syntax("RECORD TYPE or CREATE ROLE", suggest: ["RECORD", "CREATE"])
                advance()
                skipStatement()
            }
        }
        checkRoles()
        return schema
    }

    private mutating func name(_ t: CKDBToken, of what: String) -> String {
        let s = text(t)
        if t.kind == .quoted, s.isEmpty, !t.isUnterminated {
            error(CKDBRules.invalidName, "empty \(what) name \"\"", at: location(t), fix: "give the \(what) a name")
        }
        return s
    }

    private mutating func parseRole() {
        advance()  // CREATE
        guard token.isKeyword(.role) else {
            syntax("ROLE after CREATE", suggest: ["ROLE"])
            skipStatement()
            return
        }
        advance()
        guard token.isName else {
            syntax("a role name after CREATE ROLE")
            skipStatement()
            return
        }
        let loc = location(token)
        let role = name(token, of: "role")
        if Role.builtIn.contains(role) {
            error(CKDBRules.duplicateRole, "role \"\(role)\" is built in and cannot be created", at: loc, fix: "remove this CREATE ROLE; _world, _icloud and _creator always exist")
        } else if let first = createdRoles[role] {
            error(CKDBRules.duplicateRole, "role \"\(role)\" is created twice (first on line \(first))", at: loc, fix: "remove one CREATE ROLE \(role)")
        } else {
            createdRoles[role] = loc.line
            schema.roles.append(Role(name: role, origin: Origin(loc)))
        }
        advance()
        if token.kind == .semicolon {
            advance()
        } else {
            syntax("';' after CREATE ROLE \(role)", "end the statement with ';'")
            skipStatement()
        }
    }

    private mutating func parseRecordType() {
        let recordLoc = location(token)
        advance()  // RECORD
        if token.isKeyword(.type) {
            advance()
        } else {
            syntax("TYPE after RECORD", suggest: ["TYPE"])
            skipStatement()
            return
        }
        guard token.isName else {
            syntax("a record type name after RECORD TYPE", "name the record type: RECORD TYPE Name (...)")
            skipStatement()
            return
        }
        let typeName = name(token, of: "record type")
        let typeLoc = location(token)
        var type = RecordType(name: typeName, origin: Origin(typeLoc))
        advance()
        if token.kind == .leftParen {
            advance()
        } else {
            syntax("'(' after RECORD TYPE \(typeName)")
            if !(token.isName && token.line > recordLoc.line) {
                skipStatement()
                return
            }
        }
        let closed = parseBody(&type)
        if closed {
            if token.kind == .semicolon {
                advance()
            } else {
                error(CKDBRules.syntax, "expected ';' after the ')' that closes record type \(typeName), found \(describe(token))",
                      at: location(token), fix: "end each RECORD TYPE with ');'")
                if token.kind != .endOfFile, !atStatementStart() { skipStatement() }
            }
        } else if token.kind == .semicolon {
            advance()
        }
        if let first = recordTypeLines[typeName] {
            error(CKDBRules.duplicateRecordType, "record type \"\(typeName)\" is defined twice (first on line \(first))",
                  at: typeLoc, fix: "merge the two definitions into one")
        } else {
            recordTypeLines[typeName] = typeLoc.line
            schema.recordTypes.append(type)
        }
    }

    /// Parses fields and grants up to the closing `)`. Returns false when the body was
    /// never closed (end of file, or the next statement began).
    private mutating func parseBody(_ type: inout RecordType) -> Bool {
        seen.removeAll()
        grantIndex.removeAll(keepingCapacity: true)
        // Record types of one schema tend to be alike in size: start at the last one's.
        type.fields.reserveCapacity(lastFieldCount)
        defer { lastFieldCount = max(type.fields.count, 4) }
        var afterComma = false
        while !stopped {
            switch token.kind {
            case .rightParen:
                if afterComma {
                    error(CKDBRules.syntax, "expected a field or GRANT after ',', found ')'", at: location(token), fix: "remove the trailing comma")
                }
                advance()
                return true
            case .endOfFile:
                error(CKDBRules.syntax, "expected ')' to close record type \(type.name), found end of file",
                      at: location(token), fix: "the file looks truncated; close the record type with ');'")
                return false
            case .semicolon:
                error(CKDBRules.syntax, "expected ')' to close record type \(type.name), found ';'", at: location(token), fix: "close the record type with ');'")
                return false
            default:
                if atStatementStart() {
                    error(CKDBRules.syntax, "expected ')' to close record type \(type.name), found \(describe(token))",
                          at: location(token), fix: "close the record type with ');'")
                    return false
                }
            }
            let itemLine = token.line
            let item = parseItem(&type)
            afterComma = false
            switch token.kind {
            case .comma:
                advance()
                afterComma = true
            case .rightParen, .endOfFile, .semicolon:
                break
            default:
                if atStatementStart() { break }
                if let item {
                    syntax("',' or ')' after \(describe(item))", suggest: Self.optionWords)
                    // A name on a later line is most likely the next item after a missing comma.
                    if token.isName, token.line > itemLine { continue }
                    advance()
                }
                skipItem()
                if token.kind == .comma {
                    advance()
                    afterComma = true
                }
            }
        }
        return false
    }

    /// Parses one field or grant. Returns how to name it in a message ("field \"x\""),
    /// or nil when it was broken (already reported, and skipped to the next `,` or `)`).
    private mutating func parseItem(_ type: inout RecordType) -> ItemLabel? {
        if token.isKeyword(.grant) {
            let next = peek()
            let isFieldType = next.kind == .word && (next.keyword?.primitive != nil || next.isKeyword(.list) || next.isKeyword(.encrypted))
            if !isFieldType { return parseGrant(&type) }
        }
        guard token.isName else {
            syntax("a field name or GRANT")
            skipItem()
            return nil
        }
        return parseField(&type)
    }

    private mutating func parseField(_ type: inout RecordType) -> ItemLabel? {
        let nameToken = token
        // Places as lines and columns: a `SourceLocation` (which retains the file name) is
        // made only for a message.
        let line = nameToken.line, column = lexer.column(of: nameToken)
        var loc: SourceLocation { SourceLocation(file: lexer.file, line: line, column: column) }
        let fieldName = name(nameToken, of: "field")
        let label = ItemLabel.field(nameToken)
        advance()
        let typeToken = token
        guard let (fieldType, encrypted) = parseDataType(of: fieldName) else {
            skipItem()
            return nil
        }
        var indexes = IndexKinds()
        // The run of index keywords, which an index fix-it may replace whole when it stands on
        // the field's line with one space between keywords (a wider gap may hold a comment).
        var firstIndex: CKDBToken?, lastIndex: CKDBToken?, singleSpaced = true
        while token.kind == .word, let k = token.keyword?.indexKind {
            indexes.insert(k)
            if let last = lastIndex, token.start - last.end != 1 || token.line != last.line { singleSpaced = false }
            if firstIndex == nil { firstIndex = token }
            lastIndex = token
            advance()
        }

        if let first = seen.insert(nameToken, of: lexer, line: line) {
            error(CKDBRules.duplicateField, "field \"\(fieldName)\" is listed twice in record type \(type.name) (first on line \(first))",
                  at: loc, fix: "remove one of the two lines")
            return label
        }

        if lexer.nameStartsWithUnderscore(nameToken) {
            guard let system = SystemField(ckdbName: fieldName) else {
                let names = SystemField.allCases.map(\.ckdbName)
                let hint = CKDBParser.suggestion(for: fieldName, among: names).map { "; did you mean \($0)?" } ?? ""
                error(CKDBRules.systemField, "\"\(clip(fieldName))\" is not a system field\(hint)", at: loc,
                      fix: "custom field names start with a letter; the system fields are " + names.joined(separator: ", "))
                return label
            }
            if fieldType != FieldType(system.type) || encrypted {
                error(CKDBRules.systemField, "system field \"\(fieldName)\" is \(system.type.ckdbKeyword), not \(CKDBExporter.spell(fieldType, encrypted: encrypted))",
                      at: loc, fix: "write \"\(fieldName)\" \(system.type.ckdbKeyword), followed by its indexes")
                return label
            }
            if !indexes.isEmpty {
                type.systemIndexes[system] = indexes
                type.systemIndexOrigins.table[system] = Origin(loc)
            }
            return label
        }
        // An encrypted field with an index, or ENCRYPTED on a type that cannot be encrypted,
        // is grammatical: CloudKit's rules on it (CK105, CK106) live in `CloudKitRules` and
        // lint reports them with the same code and exit status as the YAML form.
        // Built in the array, not built and then copied into it (a copy retains its strings).
        type.fields.append(Field(name: fieldName, type: fieldType, isEncrypted: encrypted, indexes: indexes,
                                 origin: Origin(file: lexer.file, line: line, column: column)))
        let last = type.fields.count - 1
        type.fields[last].placeType(line: typeToken.line, column: lexer.column(of: typeToken))
        if let first = firstIndex, let end = lastIndex?.end {
            // Keywords are ASCII: their bytes are their columns.
            type.fields[last].placeIndexes(line: first.line, column: lexer.column(of: first), width: singleSpaced ? end - first.start : nil)
        }
        return label
    }

    /// `[ENCRYPTED] primitive | LIST<[ENCRYPTED] primitive>`; nil after reporting an error.
    private mutating func parseDataType(of fieldName: String) -> (FieldType, Bool)? {
        if token.isKeyword(.encrypted), peek().isKeyword(.list) {
            error(CKDBRules.encryption, "ENCRYPTED goes inside the list: write LIST<ENCRYPTED ...>, not ENCRYPTED LIST<...>",
                  at: location(token), fix: "move ENCRYPTED inside the angle brackets")
            advance()
        }
        guard token.isKeyword(.list) else { return parsePrimitive(field: fieldName, inList: false) }
        advance()
        guard token.kind == .less else {
            syntax("'<' after LIST", "write LIST<STRING>")
            return nil
        }
        advance()
        if token.isKeyword(.list) {
            error(CKDBRules.unknownType, "a list holds a primitive type, not another list", at: location(token), fix: "use LIST<TYPE> with one primitive type")
            return nil
        }
        guard let (inner, encrypted) = parsePrimitive(field: fieldName, inList: true) else { return nil }
        guard token.kind == .greater else {
            syntax("'>' to close LIST<\(CKDBExporter.spell(inner, encrypted: encrypted))")
            return nil
        }
        advance()
        return (FieldType(inner.primitive, isList: true, preferred: inner.preferred), encrypted)
    }

    /// Common names of other languages' types, and the CloudKit type to use instead.
    static let typeAliases: [String: String] = [
        "FLOAT": "DOUBLE", "REAL": "DOUBLE", "DECIMAL": "DOUBLE",
        "INT": "INT64", "INTEGER": "INT64", "INT32": "INT64", "LONG": "INT64", "BOOL": "INT64", "BOOLEAN": "INT64",
        "DATE": "TIMESTAMP", "DATETIME": "TIMESTAMP", "TIME": "TIMESTAMP",
        "TEXT": "STRING", "VARCHAR": "STRING", "CHAR": "STRING",
        // Swift's and Core Data's names, mapped as FieldType.cloudKitSpelling maps them
        // (mirroring stores URL and UUID as STRING).
        "URL": "STRING", "UUID": "STRING",
        "DATA": "BYTES", "BLOB": "BYTES", "BINARY": "BYTES", "REF": "REFERENCE", "FILE": "ASSET", "ARRAY": "LIST",
    ]

    /// "; did you mean X?" for a word in a type position: a close spelling, a known alias,
    /// or the one type it is the beginning of (a truncated file).
    private func typeHint(_ t: CKDBToken, among words: [String]) -> String {
        guard t.kind == .word else { return "" }
        let word = text(t).uppercased()
        if let s = CKDBParser.suggestion(for: word, among: words) ?? Self.typeAliases[word] {
            return "; did you mean \(s)?"
        }
        let prefixed = words.filter { $0.hasPrefix(word) }
        return word.count >= 2 && prefixed.count == 1 ? "; did you mean \(prefixed[0])?" : ""
    }

    private mutating func parsePrimitive(field: String, inList: Bool) -> (FieldType, Bool)? {
        var encrypted = false
        if token.isKeyword(.encrypted) {
            encrypted = true
            advance()
        }
        guard token.kind == .word, let primitive = token.keyword?.primitive else {
            let rule = token.kind == .word || token.kind == .quoted ? CKDBRules.unknownType : CKDBRules.syntax
            let words = encrypted ? ["BYTES", "STRING", "DOUBLE", "INT64", "LOCATION", "TIMESTAMP"] : Self.typeWords
            let what = inList ? "a type inside LIST<...> of \"\(clip(field))\"" : "a field type after \"\(clip(field))\""
            error(rule, "expected \(what), found \(describe(token))\(typeHint(token, among: words))", at: location(token),
                  fix: "the types are STRING, INT64, DOUBLE, BYTES, TIMESTAMP, LOCATION, REFERENCE, ASSET, NUMBER and LIST<type>")
            return nil
        }
        advance()
        var preferred: PrimitiveType?
        if primitive == .number, token.isKeyword(.preferred) {
            advance()
            guard token.isKeyword(.as) else {
                syntax("AS after PREFERRED", "write NUMBER PREFERRED AS INT64 or NUMBER PREFERRED AS DOUBLE", suggest: ["AS"])
                return nil
            }
            advance()
            guard token.isKeyword(.int64) || token.isKeyword(.double) else {
                syntax("INT64 or DOUBLE after PREFERRED AS", suggest: ["INT64", "DOUBLE"])
                return nil
            }
            preferred = token.keyword?.primitive
            advance()
        }
        return (FieldType(primitive, preferred: preferred), encrypted)
    }

    private mutating func parseGrant(_ type: inout RecordType) -> ItemLabel? {
        let grantLoc = location(token)
        advance()  // GRANT
        var permissions: [Permission] = []
        while true {
            guard token.kind == .word, let p = token.keyword?.permission else {
                syntax("READ, CREATE or WRITE after GRANT", suggest: Self.permissionWords)
                skipItem()
                return nil
            }
            permissions.append(p)
            advance()
            if token.kind == .comma, peek().kind == .word {
                let next = peek()
                // `GRANT READ, CREAT TO x`: a misspelt permission, not the next item.
                if next.keyword?.permission != nil
                    || (next.keyword == nil && CKDBParser.suggestion(for: text(next), among: Self.permissionWords) != nil) {
                    advance()
                    continue
                }
            }
            break
        }
        if token.isKeyword(.to) {
            advance()
        } else {
            let spelled = Self.spell(permissions)
            syntax("TO after GRANT \(spelled)", "write GRANT \(spelled) TO role", suggest: ["TO"])
            // `GRANT READ "_world"`: read on as if TO were there.
            guard token.kind == .quoted || (token.kind == .word && token.keyword == nil) else {
                skipItem()
                return nil
            }
        }
        guard token.isName else {
            syntax("a role name after GRANT \(Self.spell(permissions)) TO", "grant to _world, _icloud, _creator or a role made with CREATE ROLE")
            skipItem()
            return nil
        }
        let roleLoc = location(token)
        let role = name(token, of: "role")
        if !role.isEmpty { roleReferences.append((role, roleLoc)) }
        advance()
        if let i = grantIndex[role] {
            type.grants[i].permissions.formUnion(permissions)
        } else {
            grantIndex[role] = type.grants.count
            type.grants.append(Grant(role: role, permissions: Set(permissions), origin: Origin(grantLoc)))
        }
        return .grant(permissions, role)
    }

    /// Every granted role must be built in or created (anywhere in the file).
    private mutating func checkRoles() {
        let known = Role.builtIn.union(createdRoles.keys)
        let candidates = known.sorted()
        for ref in roleReferences where !known.contains(ref.name) {
            let hint = CKDBParser.suggestion(for: ref.name, among: candidates).map { "; did you mean \($0)?" } ?? ""
            error(CKDBRules.unknownRole, "GRANT to role \"\(clip(ref.name))\", which is never created\(hint)", at: ref.location,
                  fix: "add CREATE ROLE \(ref.name); to the schema, or grant to _world, _icloud or _creator")
        }
    }
}

/// The field names of one record type seen so far, to find one listed twice: an
/// open-addressing table of 64-bit hashes of the names (computed from the bytes by the
/// lexer), so each field costs one probe, not a scan of the fields before it, and no String
/// is hashed. The table is kept across record types and cleared, not reallocated. Names
/// crafted to collide (the hash is not seeded) make probes long: past `maxProbe` steps the
/// type's names move to a Dictionary (seeded hashing), so reading stays linear.
private struct SeenNames {
    /// Each name's bytes in the file (for quoted names: without the quotes).
    private var names: [Range<Int>] = []
    private var lines: [Int] = []
    private var hashes: [UInt64] = []
    /// Index into `names` plus one; 0 is an empty slot. Its size is a power of two, at
    /// least twice the number of names.
    private var slots = [Int32](repeating: 0, count: 64)
    private var large: [String: Int]?
    private static let maxProbe = 32

    mutating func removeAll() {
        if slots.count > 1024 {
            // After a very large record type, do not clear its table for every small one.
            slots = [Int32](repeating: 0, count: 64)
        } else if !names.isEmpty {
            for i in slots.indices { slots[i] = 0 }
        }
        names.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        large = nil
    }

    /// Records the name `token` spells; returns the line it was first seen on when it was
    /// seen before. Names are compared as bytes in the file: no String is kept or compared.
    mutating func insert(_ token: CKDBToken, of lexer: CKDBLexer, line: Int) -> Int? {
        let name = lexer.nameRange(token)
        if large != nil { return insertLarge(lexer.text(of: token), line: line) }
        let hash = lexer.nameHash(of: token)
        if (names.count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var i = Self.slot(hash, mask)
        var probes = 0
        while slots[i] != 0 {
            let j = Int(slots[i]) - 1
            if hashes[j] == hash && lexer.sameBytes(names[j], name) { return lines[j] }
            probes += 1
            if probes > Self.maxProbe {
                large = Dictionary(zip(names.map { lexer.text(of: $0) }, lines), uniquingKeysWith: { a, _ in a })
                return insertLarge(lexer.text(of: token), line: line)
            }
            i = (i + 1) & mask
        }
        slots[i] = Int32(truncatingIfNeeded: names.count + 1)
        names.append(name)
        lines.append(line)
        hashes.append(hash)
        return nil
    }

    private mutating func insertLarge(_ name: String, line: Int) -> Int? {
        if let first = large![name] { return first }
        large![name] = line
        return nil
    }

    private static func slot(_ hash: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for j in hashes.indices {
            var i = Self.slot(hashes[j], mask)
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = Int32(truncatingIfNeeded: j + 1)
        }
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
