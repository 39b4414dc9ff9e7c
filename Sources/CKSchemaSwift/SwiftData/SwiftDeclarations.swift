import CKSchemaModel
import Foundation

/// What one Swift file declares that the schema needs, read from its tokens in one walk:
/// types (with `@Model` classes' stored properties), typealiases, VersionedSchema and
/// SchemaMigrationPlan lists, and ModelConfiguration / Schema calls. The tokens are dropped
/// once the facts are taken, so memory stays flat in the number of files.
struct SwiftDeclarations: Sendable {
    /// A type declaration (`class`, `struct`, `enum`, `actor`, `protocol`), by its path of names.
    struct TypeDecl: Sendable {
        var path: [String]
        var kind: String
        var inherits: [String]
        var origin: Origin
    }

    /// An `@Attribute(...)` / `@Relationship(...)` / other attribute on a property.
    struct Attribute: Sendable {
        var name: String
        /// The `.option` words at the top level of its arguments (`unique`, `externalStorage`, ...).
        var options: [String] = []
        /// Labelled arguments: `originalName`, `deleteRule` (the member name), `inverse`
        /// (the key path's last name and its root type).
        var originalName: String?
        var deleteRule: String?
        var inverse: (type: String, property: String)?
        var origin: Origin
    }

    /// A stored property of a model.
    struct Property: Sendable {
        var name: String
        var type: SwiftTypeRef?
        /// The type an initializer states (`= ""`, `= UUID()`, `= Mood.happy`), when no type is written.
        var inferred: SwiftTypeRef?
        /// `= Name.member` inferred from: holds only when `Name` turns out to be an enum.
        var inferredFromMember = false
        var hasDefault = false
        var isLet = false
        var attributes: [Attribute] = []
        var origin: Origin
    }

    /// A `@Model` class.
    struct Model: Sendable {
        var path: [String]
        var name: String { path.last ?? "" }
        var inherits: [String]
        var properties: [Property] = []
        var uniques: [(properties: [String], origin: Origin)] = []
        var notes: [CoreDataModel.Note] = []
        var origin: Origin
    }

    /// A type whose body lists `X.self` in a static property (`models` of a VersionedSchema,
    /// `schemas` of a SchemaMigrationPlan).
    struct TypeList: Sendable {
        var owner: [String]
        var names: [[String]]
        var version: [Int]
        var origin: Origin
        /// The other lists `models` returns (`{ AppSchema.models }`): each a path ending in
        /// a static property's name, followed by the resolver.
        var references: [[String]] = []
    }

    /// A static property (of any type) whose value names types: `static let models =
    /// [A.self, B.self]`, `static var all: [any PersistentModel.Type] { Other.models }`.
    struct StaticList: Sendable {
        var path: [String]
        var names: [[String]]
        var references: [[String]]
    }

    /// `ModelConfiguration(..., cloudKitDatabase: .none)` and the models it names.
    struct LocalConfiguration: Sendable {
        var names: [[String]]
        /// `schema: FamilyShareCacheSchema.schema`: a static property holding `Schema([...])`.
        var schemaReferences: [[String]] = []
        /// `schema: Schema(localOnlyTypes)`: static lists of models, by the end of their path.
        var listReferences: [[String]] = []
        var origin: Origin
    }

    var types: [TypeDecl] = []
    var models: [Model] = []
    var aliases: [(scope: [String], name: String, type: SwiftTypeRef, origin: Origin)] = []
    var versionedSchemas: [TypeList] = []
    var migrationPlans: [TypeList] = []
    var localConfigurations: [LocalConfiguration] = []
    /// The other `ModelConfiguration(...)` calls (`.private(...)`, `.automatic`, or no
    /// `cloudKitDatabase:`): a model one of them names syncs, whatever a local one says
    /// (Ritualist's fallback store without iCloud names every synced model, `.none`).
    var syncedConfigurations: [LocalConfiguration] = []
    /// Static properties whose value is `Schema([A.self, ...])`, by their path, with the models.
    var schemaProperties: [(path: [String], names: [[String]])] = []
    /// `Schema(versionedSchema: X.self)`: the schema the container is built from.
    var containerSchemas: [[String]] = []
    /// Static properties that name types (`X.self`) or other static properties, by path: what
    /// a VersionedSchema's `models` may return instead of its own list (issue 31 point 8).
    var staticLists: [StaticList] = []
}

/// The walk over one file's tokens.
struct SwiftDeclarationReader {
    let s: SwiftSource
    var out = SwiftDeclarations()
    /// The types of the stored properties read so far, by their tokens (`SwiftTypeRef.Memo`).
    var typeMemo = SwiftTypeRef.Memo()

    init(_ source: SwiftSource) { s = source }

    /// What a word at the start of a declaration is: a modifier, a keyword the walk acts
    /// on, or another declaration keyword (`case`, `import`, `macro`, ...).
    enum Word: Sendable { case modifier, staticKeyword, classKeyword, typeKeyword, varKeyword, letKeyword, typealiasKeyword, functionKeyword, otherStarter }

    static let modifierWords = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "override", "lazy", "weak",
        "unowned", "nonisolated", "required", "convenience", "dynamic", "mutating", "nonmutating", "indirect",
        "isolated", "consuming", "borrowing", "distributed", "optional",
    ]
    /// Every word that begins a declaration, by bytes (`SwiftWordTable`: no `String` per token).
    static let words = SwiftWordTable<Word>(modifierWords.map { ($0, .modifier) } + [
        ("static", .staticKeyword), ("class", .classKeyword), ("struct", .typeKeyword), ("enum", .typeKeyword),
        ("actor", .typeKeyword), ("protocol", .typeKeyword), ("extension", .typeKeyword), ("var", .varKeyword),
        ("let", .letKeyword), ("typealias", .typealiasKeyword), ("func", .functionKeyword), ("init", .functionKeyword),
        ("deinit", .functionKeyword), ("subscript", .functionKeyword),
    ] + ["case", "import", "associatedtype", "operator", "precedencegroup", "macro"].map { ($0, .otherStarter) })

    /// True when token `k` begins a new declaration on its own line (so the previous one ended).
    func startsDeclaration(_ k: Int) -> Bool {
        let t = s.tokens[k]
        switch t.kind {
        case .rightBrace, .endOfFile, .semicolon: return true
        case .at, .poundKeyword: return t.flags.contains(.newlineBefore)
        case .identifier: return t.flags.contains(.newlineBefore) && s.word(k, in: Self.words) != nil
        default: return false
        }
    }

    /// The index where the expression or statement starting at `k` ends (exclusive): the
    /// next declaration on a new line, a `;`, the end of the scope, or a top-level `,` or
    /// `{ didSet/willSet` when `stopAtComma`.
    func endOfExpression(_ start: Int, limit: Int, stopAtComma: Bool = false) -> Int {
        var k = start
        while k < limit {
            if k > start, startsDeclaration(k) { return k }
            let t = s.tokens[k]
            if t.kind == .semicolon || t.kind == .rightBrace || t.kind == .endOfFile { return k }
            if stopAtComma, t.kind == .comma { return k }
            if t.kind == .leftBrace, isObserverBlock(k) { return k }
            k = t.isOpening ? s.skipGroup(k) : k + 1
        }
        return min(k, limit)
    }

    /// A `{` whose first token is `didSet` or `willSet`: a stored property's observers.
    func isObserverBlock(_ k: Int) -> Bool {
        s.is(k, .leftBrace) && (s.is(k + 1, "didSet") || s.is(k + 1, "willSet") || (s.is(k + 1, .at) && (s.is(k + 3, "didSet") || s.is(k + 3, "willSet"))))
    }

    /// `X.self`, `A.B.self` names inside tokens `range`.
    func selfNames(_ range: Range<Int>) -> [[String]] {
        var names: [[String]] = []
        for k in range where s.is(k, "self") && s.is(k - 1, .period) {
            var path: [String] = []
            var j = k - 2
            while j >= range.lowerBound, s.isName(j) {
                path.insert(s.name(j), at: 0)
                guard s.is(j - 1, .period) else { break }
                j -= 2
            }
            if !path.isEmpty { names.append(path) }
        }
        return names
    }

    /// `AppSchema.models`, `Schema.V2.all` inside tokens `range`: a path that starts with a
    /// type's name (capitalized) and ends in a property's (lowercase, not `self`), such as a
    /// VersionedSchema's `models` returns when another type keeps the list. A longer chain
    /// (`AppSchema.models.map`) is kept whole; the resolver tries its prefixes.
    func listReferences(_ range: Range<Int>) -> [[String]] {
        var refs: [[String]] = []
        var k = range.lowerBound
        while k < range.upperBound {
            guard s.isName(k), !(k > range.lowerBound && s.is(k - 1, .period)) else { k += 1; continue }
            var path = [s.name(k)]
            var j = k
            while j + 2 < range.upperBound, s.is(j + 1, .period), s.isName(j + 2) {
                path.append(s.name(j + 2))
                j += 2
            }
            k = j + 1
            // Not `A.self` (a name the list holds) nor `PersistentModel.Type` (a type).
            guard path.count >= 2, path[0].first?.isUppercase == true, !path.contains("self"),
                  path.last?.first?.isLowercase == true else { continue }
            refs.append(path)
        }
        return refs
    }

    // MARK: The walk

    mutating func read() -> SwiftDeclarations {
        readScope(from: 0, to: s.tokens.count - 1, path: [], kind: .file)
        scanCalls()
        return out
    }

    enum ScopeKind { case file, model, type }

    /// Reads the declarations between `from` and `limit` (a scope's body). Nested type
    /// bodies are read by a loop over an explicit work list, never by recursion.
    mutating func readScope(from: Int, to limit: Int, path: [String], kind: ScopeKind) {
        var work: [(from: Int, limit: Int, path: [String], kind: ScopeKind, model: Int?)] = [(from, limit, path, kind, nil)]
        while let scope = work.popLast() {
            var k = scope.from
            var attributes: [SwiftDeclarations.Attribute] = []
            var isStatic = false
            while k < scope.limit {
                let t = s.tokens[k]
                switch t.kind {
                case .at:
                    guard s.isName(k + 1) else { k += 1; continue }
                    var a = SwiftDeclarations.Attribute(name: s.name(k + 1), origin: s.origin(k))
                    var j = k + 2
                    // `@A.B` qualified attribute names.
                    while s.is(j, .period), s.isName(j + 1) { a.name = s.name(j + 1); j += 2 }
                    if s.is(j, .leftParen), !s.tokens[j].flags.contains(.spaceBefore) {
                        let close = s.matching(j) ?? scope.limit
                        readArguments(&a, j + 1, close)
                        j = close + 1
                    }
                    attributes.append(a)
                    k = j
                    continue
                case .poundKeyword:
                    let word = s.text(k)
                    if word == "#if" || word == "#elseif" || word == "#else" || word == "#endif" {
                        // Every branch is read: which one compiles is not known here.
                        k += 1
                        while k < scope.limit, !s.tokens[k].flags.contains(.newlineBefore) { k = s.tokens[k].isOpening ? s.skipGroup(k) : k + 1 }
                        continue
                    }
                    if word == "#Unique", scope.kind == .model, let m = scope.model {
                        var j = k + 1
                        if let angles = s.skipAngles(j) { j = angles.last + 1 }
                        if s.is(j, .leftParen), let close = s.matching(j) {
                            // Each `[\.a, \.b]` argument is one constraint.
                            var g = j + 1
                            while g < close {
                                if s.is(g, .leftBracket), let end = s.matching(g) {
                                    let names = (g..<end).filter { s.is($0, .period) && s.is($0 - 1, .backslash) && s.isName($0 + 1) }.map { s.name($0 + 1) }
                                    out.models[m].uniques.append((names, s.origin(k)))
                                    g = end + 1
                                } else { g += 1 }
                            }
                            k = close + 1
                            continue
                        }
                    }
                    k = endOfExpression(k, limit: scope.limit)
                    attributes = []
                    continue
                case .identifier:
                    let word = s.word(k, in: Self.words)
                    if word == .modifier {
                        k += 1
                        if s.is(k, .leftParen), !s.tokens[k].flags.contains(.spaceBefore) { k = s.skipGroup(k) }   // private(set)
                        continue
                    }
                    if word == .staticKeyword || (word == .classKeyword && (s.is(k + 1, "var") || s.is(k + 1, "let") || s.is(k + 1, "func"))) {
                        isStatic = true; k += 1; continue
                    }
                    switch word {
                    case .classKeyword, .typeKeyword:
                        k = readType(k, scope: scope, attributes: attributes, into: &work)
                    case .varKeyword, .letKeyword:
                        if isStatic {
                            let end = readStatic(k, scope: scope)
                            if s.isName(k + 1), (k..<end).contains(where: { s.is($0, "Schema") && s.is($0 + 1, .leftParen) }) {
                                out.schemaProperties.append((scope.path + [s.name(k + 1)], selfNames(k..<end)))
                            }
                            if s.isName(k + 1) {
                                let names = selfNames(k + 2..<end), references = listReferences(k + 2..<end)
                                if !names.isEmpty || !references.isEmpty {
                                    out.staticLists.append(SwiftDeclarations.StaticList(path: scope.path + [s.name(k + 1)], names: names, references: references))
                                }
                            }
                            k = end
                        } else if scope.kind == .model, let m = scope.model {
                            k = readProperty(k, limit: scope.limit, attributes: attributes, model: m)
                        } else {
                            k = endOfExpression(k + 1, limit: scope.limit)
                        }
                    case .typealiasKeyword:
                        k = readAlias(k, scope: scope)
                    case .functionKeyword:
                        k = skipFunction(k + 1, limit: scope.limit)
                    default:
                        k = endOfExpression(k, limit: scope.limit)
                    }
                    attributes = []
                    isStatic = false
                default:
                    k = t.isOpening ? s.skipGroup(k) : k + 1
                    attributes = []
                    isStatic = false
                }
            }
        }
    }

    /// The arguments of an attribute: `.option` words, `originalName: "x"`,
    /// `deleteRule: .cascade`, `inverse: \Type.property`.
    func readArguments(_ a: inout SwiftDeclarations.Attribute, _ from: Int, _ to: Int) {
        var k = from
        while k < to {
            if s.is(k, .period), s.isName(k + 1), k == from || s.is(k - 1, .comma) {
                a.options.append(s.name(k + 1))
            } else if s.isName(k), s.is(k + 1, .colon) {
                let label = s.name(k)
                if label == "originalName", let v = s.stringValue(k + 2) { a.originalName = v }
                if label == "deleteRule", s.is(k + 2, .period), s.isName(k + 3) { a.deleteRule = s.name(k + 3) }
                if label == "inverse", s.is(k + 2, .backslash) {
                    var j = k + 3
                    var names: [String] = []
                    while j < to {
                        if s.isName(j) { names.append(s.name(j)) } else if !s.is(j, .period) && !s.is(j, "?") && !s.is(j, "!") { break }
                        j += 1
                    }
                    if let last = names.last { a.inverse = (names.count > 1 ? names[names.count - 2] : "", last) }
                }
                k += 2
                continue
            }
            k = s.tokens[k].isOpening ? s.skipGroup(k) : k + 1
        }
    }

    /// A type declaration: records it, and queues its body.
    mutating func readType(_ k: Int, scope: (from: Int, limit: Int, path: [String], kind: ScopeKind, model: Int?),
                           attributes: [SwiftDeclarations.Attribute],
                           into work: inout [(from: Int, limit: Int, path: [String], kind: ScopeKind, model: Int?)]) -> Int {
        let keyword = s.text(k)
        var j = k + 1
        var names: [String] = []
        while s.isName(j) {
            names.append(s.name(j))
            guard s.is(j + 1, .period) else { break }
            j += 2
        }
        guard let name = names.last else { return endOfExpression(k + 1, limit: scope.limit) }
        j += 1
        if let angles = s.skipAngles(j) { j = angles.last + 1 }
        var inherits: [String] = []
        if s.is(j, .colon) {
            j += 1
            while j < scope.limit, !s.is(j, .leftBrace), !s.is(j, "where") {
                if s.isName(j), !s.is(j - 1, .period) || true {
                    var n = s.name(j)
                    while s.is(j + 1, .period), s.isName(j + 2) { j += 2; n = s.name(j) }
                    inherits.append(n)
                }
                if let angles = s.skipAngles(j + 1) { j = angles.last }
                j += 1
                while j < scope.limit, !s.is(j, .comma), !s.is(j, .leftBrace), !s.is(j, "where"), !s.isName(j) || s.is(j - 1, .period) { j = s.tokens[j].isOpening ? s.skipGroup(j) : j + 1 }
                if s.is(j, .comma) { j += 1 }
            }
        }
        while j < scope.limit, !s.is(j, .leftBrace), !startsDeclaration(j) { j = s.tokens[j].kind == .leftParen || s.tokens[j].kind == .leftBracket ? s.skipGroup(j) : j + 1 }
        let path = keyword == "extension" ? names : scope.path + [name]
        let origin = s.origin(k + 1 + (names.count - 1) * 2)
        let isModel = keyword == "class" && attributes.contains { $0.name == "Model" }
        if keyword != "extension" {
            out.types.append(SwiftDeclarations.TypeDecl(path: path, kind: keyword, inherits: inherits, origin: origin))
        }
        var modelIndex: Int?
        if isModel {
            out.models.append(SwiftDeclarations.Model(path: path, inherits: inherits, origin: origin))
            modelIndex = out.models.count - 1
        }
        guard s.is(j, .leftBrace), let close = s.matching(j) else { return j }
        let kind: ScopeKind = isModel ? .model : .type
        if inherits.contains("VersionedSchema") || inherits.contains("SchemaMigrationPlan") {
            readTypeList(j + 1, close, owner: path, isPlan: inherits.contains("SchemaMigrationPlan"), origin: origin)
        }
        work.append((j + 1, close, path, kind, modelIndex))
        return close + 1
    }

    /// `static var models: [any PersistentModel.Type] { [A.self] }`, `static let
    /// versionIdentifier = Schema.Version(1, 0, 0)`, `static var schemas: [...] { [...] }`.
    mutating func readTypeList(_ from: Int, _ to: Int, owner: [String], isPlan: Bool, origin: Origin) {
        var list = SwiftDeclarations.TypeList(owner: owner, names: [], version: [], origin: origin)
        var k = from
        while k < to {
            if s.is(k, "static"), s.is(k + 1, "var") || s.is(k + 1, "let"), s.isName(k + 2) {
                let name = s.name(k + 2)
                var end = endOfExpression(k + 3, limit: to)
                if s.is(end, .leftBrace), let close = s.matching(end) { end = close + 1 }
                if name == (isPlan ? "schemas" : "models") {
                    list.names = selfNames(k + 3..<end)
                    if !isPlan { list.references = listReferences(k + 3..<end) }
                }
                if name == "versionIdentifier" {
                    list.version = (k + 3..<end).filter { s.is($0, .integerLiteral) }.prefix(3).compactMap { Int(s.text($0).replacingOccurrences(of: "_", with: "")) }
                }
                k = end
                continue
            }
            k = s.tokens[k].isOpening ? s.skipGroup(k) : k + 1
        }
        if isPlan { out.migrationPlans.append(list) } else { out.versionedSchemas.append(list) }
    }

    /// A static property outside a VersionedSchema: skipped with its initializer or accessors.
    func readStatic(_ k: Int, scope: (from: Int, limit: Int, path: [String], kind: ScopeKind, model: Int?)) -> Int {
        var end = endOfExpression(k + 1, limit: scope.limit)
        if s.is(end, .leftBrace), let close = s.matching(end) { end = close + 1 }
        return end
    }

    mutating func readAlias(_ k: Int, scope: (from: Int, limit: Int, path: [String], kind: ScopeKind, model: Int?)) -> Int {
        guard s.isName(k + 1) else { return endOfExpression(k + 1, limit: scope.limit) }
        var j = k + 2
        if let angles = s.skipAngles(j) { j = angles.last + 1 }
        let end = endOfExpression(j, limit: scope.limit)
        if s.is(j, "="), let type = SwiftTypeRef.parse(s, j + 1..<end) {
            out.aliases.append((scope.path, s.name(k + 1), type, s.origin(k + 1)))
        }
        return end
    }

    /// Past a function, initializer or subscript: its signature (default values and
    /// all) and its body, or its end of line when it has none (a protocol requirement).
    func skipFunction(_ start: Int, limit: Int) -> Int {
        var k = start
        while k < limit {
            if k > start, startsDeclaration(k) { return k }
            if s.is(k, .leftBrace) { return s.skipGroup(k) }
            k = s.tokens[k].isOpening ? s.skipGroup(k) : k + 1
        }
        return k
    }

    /// A stored (or computed) property of a model; each binding of `var a = 1, b = 2`.
    mutating func readProperty(_ k: Int, limit: Int, attributes: [SwiftDeclarations.Attribute], model m: Int) -> Int {
        let isLet = s.is(k, "let")
        var j = k + 1
        while true {
            guard s.isName(j) else {
                out.models[m].notes.append(CoreDataModel.Note(code: SwiftRules.notUnderstood.code, "a property pattern the reader does not understand; skipped", at: s.origin(j)))
                return endOfExpression(j, limit: limit)
            }
            // The parts are gathered apart and the property built in the `append` call: a
            // `Property` built first and then appended was copied and the original destroyed
            // (about 300 instructions a property, 72 M of a model-dense import).
            let name = s.name(j), origin = s.origin(j)
            var type: SwiftTypeRef?, inferred: SwiftTypeRef?, inferredFromMember = false, hasDefault = false
            j += 1
            if s.is(j, .colon) {
                let typeStart = j + 1
                var e = typeStart
                while e < limit, !s.isOperator(e, UInt8(ascii: "=")), !s.is(e, .leftBrace), !s.is(e, .comma), !(e > typeStart && startsDeclaration(e)) {
                    e = s.tokens[e].kind == .leftParen || s.tokens[e].kind == .leftBracket ? s.skipGroup(e) : e + 1
                }
                type = typeMemo.parse(s, typeStart..<e)
                j = e
            }
            var computed = false
            if s.isOperator(j, UInt8(ascii: "=")) {
                hasDefault = true
                let end = endOfExpression(j + 1, limit: limit, stopAtComma: true)
                if type == nil { (inferred, inferredFromMember) = infer(j + 1..<end) }
                j = end
            }
            if s.is(j, .leftBrace), let close = s.matching(j) {
                computed = !isObserverBlock(j)
                j = close + 1
            }
            if !computed {
                out.models[m].properties.append(SwiftDeclarations.Property(
                    name: name, type: type, inferred: inferred, inferredFromMember: inferredFromMember, hasDefault: hasDefault,
                    isLet: isLet, attributes: attributes, origin: origin))
            }
            guard s.is(j, .comma) else { return j }
            j += 1
        }
    }

    /// The type an initializer states by itself: a literal, `Name(...)`, `Name.member`.
    func infer(_ r: Range<Int>) -> (SwiftTypeRef?, Bool) {
        var r = r
        if r.count >= 2, s.is(r.lowerBound, "-"), !s.tokens[r.lowerBound + 1].flags.contains(.spaceBefore) { r = r.lowerBound + 1..<r.upperBound }
        if r.count == 1 {
            let k = r.lowerBound
            switch s.tokens[k].kind {
            case .stringLiteral: return (.named(["String"]), false)
            case .integerLiteral: return (.named(["Int"]), false)
            case .floatLiteral: return (.named(["Double"]), false)
            case .identifier where s.is(k, "true") || s.is(k, "false"): return (.named(["Bool"]), false)
            default: return (nil, false)
            }
        }
        // `A.B(...)` with nothing after the call, or `A.member`.
        var path: [String] = []
        var k = r.lowerBound
        while k < r.upperBound, s.isName(k) {
            path.append(s.name(k))
            guard s.is(k + 1, .period) else { k += 1; break }
            k += 2
        }
        if !path.isEmpty, path.allSatisfy({ $0.first?.isUppercase == true }), k < r.upperBound, s.is(k, .leftParen), s.matching(k) == r.upperBound - 1 {
            return (.named(path), false)
        }
        if path.count == 2, k == r.upperBound, let first = path.first?.first, first.isUppercase {
            if path[0] == "Date", ["now", "distantPast", "distantFuture"].contains(path[1]) { return (.named(["Date"]), false) }
            return (.named([path[0]]), true)
        }
        return (nil, false)
    }

    /// Calls anywhere in the file: `ModelConfiguration(..., cloudKitDatabase: .none)` and
    /// `Schema(versionedSchema: X.self)`.
    mutating func scanCalls() {
        for k in s.tokens.indices where s.tokens[k].kind == .identifier {
            guard s.is(k + 1, .leftParen), let close = s.matching(k + 1) else { continue }
            if s.is(k, "ModelConfiguration") {
                var local = false
                for j in k + 2..<close where s.is(j, "cloudKitDatabase") && s.is(j + 1, .colon) && s.is(j + 2, .period) && s.is(j + 3, "none") { local = true }
                var config = SwiftDeclarations.LocalConfiguration(names: selfNames(k + 2..<close), origin: s.origin(k))
                for j in k + 2..<close where s.is(j, "schema") && s.is(j + 1, .colon) && s.isName(j + 2) && !s.is(j + 2, "Schema") {
                    var path = [s.name(j + 2)]
                    var n = j + 3
                    while s.is(n, .period), s.isName(n + 1) { path.append(s.name(n + 1)); n += 2 }
                    config.schemaReferences.append(path)
                }
                // `Schema(localOnlyTypes)`, `Schema(Lists.local)`: a list kept in a static property.
                for j in k + 2..<close where s.is(j, "Schema") && s.is(j + 1, .leftParen) && s.isName(j + 2) && !s.is(j + 3, .colon) {
                    var path = [s.name(j + 2)]
                    var n = j + 3
                    while s.is(n, .period), s.isName(n + 1) { path.append(s.name(n + 1)); n += 2 }
                    if s.is(n, .rightParen) || s.is(n, .comma), path.last != "self" { config.listReferences.append(path) }
                }
                if local { out.localConfigurations.append(config) } else { out.syncedConfigurations.append(config) }
            } else if s.is(k, "Schema"), s.is(k + 2, "versionedSchema"), s.is(k + 3, .colon) {
                out.containerSchemas += selfNames(k + 4..<close)
            }
        }
    }
}
