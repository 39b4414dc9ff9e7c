import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// Reads SwiftData `@Model` classes from Swift sources into the `CoreDataModel` that
/// NSPersistentCloudKitContainer mirrors: SwiftData builds a Core Data model from the
/// classes and syncs it through the same container (Apple, “Syncing model data across a
/// person's devices”), so the Core Data mapping (`CoreDataMapping`), the CK61x lint rules
/// and the CK63x promotion rules apply unchanged. docs/swiftdata.md gives each line's source.
///
/// It reports only what it resolved: a property whose type the sources do not declare is
/// assumed bytes with a note (CK641), one whose type cannot be told is skipped with a note.
public enum SwiftModelReader {
    /// Folders never searched for sources (build products and dependencies).
    public static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", ".git", ".swiftpm", "Carthage"]

    /// True when `path` is a `.swift` file.
    public static func isSwiftFile(path: String) -> Bool { path.lowercased().hasSuffix(".swift") }

    /// How `sourceWalk` walks a folder (`FolderWalk`): each real folder once, inside `path`.
    static let walkOptions = FolderWalk.Options(skipFolder: { $0.hasPrefix(".") || skippedFolders.contains($0) }, includeFile: { isSwiftFile(path: $0) })

    /// The `.swift` files under `path` with the walk's errors (a folder that cannot be read,
    /// CK001) and notes (a folder not searched, CK016).
    public static func sourceWalk(at path: String, reader: any FolderWalk.Reader = FolderWalk.SystemReader()) -> FolderWalk.Result {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return FolderWalk.Result() }
        guard isDir.boolValue else {
            var one = FolderWalk.Result()
            if isSwiftFile(path: path) { one.files = [path] }
            return one
        }
        return FolderWalk.walk(path, options: walkOptions, reader: reader)
    }

    /// Reads the sources at `path` (a `.swift` file or a folder). `version` picks a
    /// `VersionedSchema` by name (`--model-version`). Throws CK640 for a file that is not
    /// valid Swift, CK642 for an unknown version, CK645 when no model is found.
    /// `models` (ckschema.yaml's `swiftData.models`) names the classes that sync instead;
    /// CK646 for a name that is no `@Model` class of the sources.
    /// A folder that cannot be read is CK001; a folder not searched (a link to one already
    /// searched, or out of `path`) is a CK016 note of the model.
    public static func load(path: String, version: String? = nil, models: [ModelName]? = nil,
                            reader: any FolderWalk.Reader = FolderWalk.SystemReader()) throws(InputError) -> (model: CoreDataModel, suppressions: [Suppression]) {
        let walk = sourceWalk(at: path, reader: reader)
        if !walk.errors.isEmpty { throw InputError(walk.errors) }
        let files = walk.files
        // Files are independent until their names are resolved: each half is read on its own
        // core (each thread holds one file's tokens at a time, so memory stays flat), and the
        // results are taken in path order, so the output is the same as one thread's.
        let mid = files.count / 2
        let (first, second) = Concurrently.both({ readFiles(files[..<mid]) }, { readFiles(files[mid...]) })
        var decls: [SwiftDeclarations] = []
        var suppressions: [Suppression] = []
        var errors: [Diagnostic] = []
        for facts in first + second {
            switch facts {
            case let .failure(error): throw error
            case let .success(f):
                errors += f.errors
                if let d = f.declarations { decls.append(d) }
                suppressions += f.suppressions
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        var built = try Self.model(decls, path: path, version: version, models: models)
        built.notes += walk.notes.map { CoreDataModel.Note(code: $0.code, $0.message, fix: $0.fix, at: Origin($0.location ?? SourceLocation(file: path, line: 1, column: 1))) }
        return (built, suppressions)
    }

    /// What one file gives: its declarations and suppressions, or its lexical problems.
    struct FileFacts: Sendable {
        var declarations: SwiftDeclarations?
        var suppressions: [Suppression] = []
        var errors: [Diagnostic] = []
    }

    /// Reads each file of `files` in turn; a file that cannot be read is its `InputError`.
    static func readFiles(_ files: ArraySlice<String>) -> [Result<FileFacts, InputError>] {
        files.map { file in
            Result { () throws(InputError) -> FileFacts in
                let data = try InputFile.read(path: file)
                let source = SwiftSource(data, file: file)
                if !source.problems.isEmpty { return FileFacts(errors: source.diagnostics(rule: SwiftRules.syntax)) }
                var reader = SwiftDeclarationReader(source)
                return FileFacts(declarations: reader.read(), suppressions: Suppression.scan(data, file: file))
            }
        }
    }

    /// Reads sources given as text (tests, the fuzz target): each `(file, bytes)`.
    public static func read(_ files: [(file: String, bytes: [UInt8])], path: String, version: String? = nil, models: [ModelName]? = nil) throws(InputError) -> CoreDataModel {
        var decls: [SwiftDeclarations] = []
        var errors: [Diagnostic] = []
        for (file, bytes) in files {
            let source = SwiftSource(bytes: bytes, file: file)
            if !source.problems.isEmpty { errors += source.diagnostics(rule: SwiftRules.syntax); continue }
            var reader = SwiftDeclarationReader(source)
            decls.append(reader.read())
        }
        if !errors.isEmpty { throw InputError(errors) }
        return try model(decls, path: path, version: version, models: models)
    }

    /// The model the declarations of every file describe.
    static func model(_ decls: [SwiftDeclarations], path: String, version: String?, models: [ModelName]? = nil) throws(InputError) -> CoreDataModel {
        var r = Resolver(decls)
        return try r.model(path: path, version: version, models: models)
    }
}

/// Resolves names across the files and builds the model.
struct Resolver {
    var types: [String: SwiftDeclarations.TypeDecl] = [:]
    var byLast: [String: [SwiftDeclarations.TypeDecl]] = [:]
    var aliases: [String: SwiftTypeRef] = [:]
    var models: [String: SwiftDeclarations.Model] = [:]
    var modelOrder: [String] = []
    var all: [SwiftDeclarations]
    var notes: [CoreDataModel.Note] = []
    /// The last name of every type and typealias the sources declare: a name not in it
    /// (`String`, `Date`, another module's type) resolves to nothing without building a key.
    /// Measured: the joined keys of every lookup were a third of `import`'s time (Benchmarks/swift).
    var declaredNames: Set<String> = []
    /// The name of every typealias the sources declare.
    var aliasNames: Set<String> = []
    /// Whether the sources declare a type or typealias named as a value type SwiftData stores
    /// (`struct Date`, `typealias Data = ...`): when none does, `String` needs no lookup to be
    /// the standard type (the lookups were a twentieth of a dense SwiftData import, Benchmarks/swift).
    var shadowsStoredType = false
    /// Static properties that name types or other lists, by their joined path (`AppSchema.models`).
    var staticLists: [String: SwiftDeclarations.StaticList] = [:]
    /// What the reader chose, for the message when no model is left (CK645): the
    /// VersionedSchema, why, how many models it listed, the lists it could not follow.
    var choice: (name: String, why: String, listed: Int, unfollowed: [String])?
    /// Each local-only ModelConfiguration that took models out, and their names.
    var exclusions: [(origin: Origin, names: [String])] = []
    /// The most static lists one `models` is followed through (lists that name lists fan out).
    static let listBudget = 256

    init(_ decls: [SwiftDeclarations]) {
        all = decls
        for d in decls {
            for t in d.types {
                let key = t.path.joined(separator: ".")
                if types[key] == nil { types[key] = t }
                byLast[t.path.last ?? "", default: []].append(t)
                declaredNames.insert(t.path.last ?? "")
            }
            for a in d.aliases {
                aliases[(a.scope + [a.name]).joined(separator: ".")] = a.type
                declaredNames.insert(a.name)
                aliasNames.insert(a.name)
            }
            for m in d.models {
                let key = m.path.joined(separator: ".")
                if models[key] == nil { models[key] = m; modelOrder.append(key) }
            }
            for l in d.staticLists {
                let key = l.path.joined(separator: ".")
                if staticLists[key] == nil { staticLists[key] = l }
            }
        }
        shadowsStoredType = declaredNames.contains { Self.attributeType($0) != nil }
    }

    /// The names the static lists `references` name hold (`AppSchema.models` gives `[A.self,
    /// B.self]`), each with the scope it is written in; a list that names another list is
    /// followed, at most 8 deep and through `listBudget` lists. A reference that finds no
    /// list is added to `unfollowed`.
    func followLists(_ references: [[String]], scope: [String], depth: Int = 0, budget: inout Int, unfollowed: inout [String]) -> [(name: [String], scope: [String])] {
        var out: [(name: [String], scope: [String])] = []
        for ref in references {
            guard depth < 8, budget > 0 else { unfollowed.append(ref.joined(separator: ".")); continue }
            var found: SwiftDeclarations.StaticList?
            // `AppSchema.models.map`: the longest prefix that is a type's static property.
            for n in stride(from: ref.count, through: 2, by: -1) {
                guard let owner = resolve(Array(ref.prefix(n - 1)), in: scope),
                      let list = staticLists[(owner.path + [ref[n - 1]]).joined(separator: ".")] else { continue }
                found = list
                break
            }
            guard let found else { unfollowed.append(ref.joined(separator: ".")); continue }
            budget -= 1
            let listScope = Array(found.path.dropLast())
            out += found.names.map { (name: $0, scope: listScope) }
            out += followLists(found.references, scope: listScope, depth: depth + 1, budget: &budget, unfollowed: &unfollowed)
        }
        return out
    }

    /// The declaration a name written in `scope` means: nested names first (inner scopes
    /// out), typealiases followed, then a unique declaration of that last name anywhere.
    func resolve(_ path: [String], in scope: [String], depth: Int = 0) -> SwiftDeclarations.TypeDecl? {
        guard depth < 16, let last = path.last, declaredNames.contains(last) else { return nil }
        for i in stride(from: scope.count, through: 0, by: -1) {
            let key = (scope.prefix(i) + path).joined(separator: ".")
            if let t = types[key] { return t }
            if let alias = aliases[key] {
                if case let .named(target) = alias.unwrapped.type { return resolve(target, in: Array(scope.prefix(i)), depth: depth + 1) }
                return nil
            }
        }
        if let only = byLast[path.last ?? ""], only.count == 1, path.count == 1 || only[0].path.suffix(path.count).elementsEqual(path) { return only[0] }
        // `ActiveSchemaVersion.PersonalityAnalysisModel`, the first name a typealias of the type
        // that declares the rest (Ritualist's ActiveSchema.swift).
        if path.count > 1, aliasNames.contains(path[0]), let head = resolve([path[0]], in: scope, depth: depth + 1),
           let t = types[(head.path + path.dropFirst()).joined(separator: ".")] {
            return t
        }
        return nil
    }

    /// A written type with its typealias followed (`typealias Tags = [String]`).
    func expand(_ type: SwiftTypeRef, in scope: [String], depth: Int = 0) -> SwiftTypeRef {
        // Only a typealias changes a type: with none of that name, the type is as written.
        guard depth < 16, !aliasNames.isEmpty else { return type }
        switch type {
        case let .optional(t): return .optional(expand(t, in: scope, depth: depth + 1))
        case let .named(path):
            guard let last = path.last, aliasNames.contains(last) else { return type }
            for i in stride(from: scope.count, through: 0, by: -1) {
                let key = (scope.prefix(i) + path).joined(separator: ".")
                if types[key] != nil { return type }
                if let alias = aliases[key] { return expand(alias, in: Array(scope.prefix(i)), depth: depth + 1) }
            }
            return type
        default: return type
        }
    }

    func resolveName(_ path: [String]) -> SwiftDeclarations.TypeDecl? { resolve(path, in: []) }

    mutating func note(_ rule: RuleInfo, _ message: String, fix: String? = nil, at origin: Origin) {
        notes.append(CoreDataModel.Note(code: rule.code, message, fix: fix, at: origin))
    }

    /// The models chosen: a VersionedSchema's list (the one `version` names, the container's,
    /// else the highest of the migration plan's, else the highest), or every `@Model` class.
    mutating func chosenModels(path: String, version: String?) throws(InputError) -> (keys: [String], versionName: String) {
        let schemas = all.flatMap(\.versionedSchemas)
        guard !schemas.isEmpty else {
            var seen: [String: Origin] = [:]
            var keys: [String] = []
            for key in modelOrder {
                guard let m = models[key] else { continue }
                if let first = seen[m.name] {
                    note(SwiftRules.notUnderstood, "a second @Model class named '\(m.name)' outside any VersionedSchema; skipped (the first is at \(first))",
                         fix: "list each version's models in a VersionedSchema, so the reader knows which one ships", at: m.origin)
                    continue
                }
                seen[m.name] = m.origin
                keys.append(key)
            }
            return (keys, "")
        }
        func named(_ n: String) -> SwiftDeclarations.TypeList? {
            schemas.first { $0.owner.joined(separator: ".") == n || $0.owner.last == n }
        }
        var chosen: SwiftDeclarations.TypeList?
        var why = ""
        if let version {
            why = "--model-version"
            guard let v = named(version) else {
                let names = schemas.map { "'\($0.owner.joined(separator: "."))'" }.joined(separator: ", ")
                throw InputError(Diagnostic(rule: SwiftRules.modelVersion, "--model-version '\(version)' names no VersionedSchema of the sources; they have \(names)",
                                            at: SourceLocation(file: path, line: 1, column: 1), fix: "pass one of them to --model-version"))
            }
            chosen = v
        } else if let container = all.flatMap(\.containerSchemas).compactMap({ resolveName($0) }).first,
                  let v = schemas.first(where: { $0.owner == container.path }) {
            chosen = v
            why = "the container's Schema(versionedSchema:)"
        } else {
            var planned: [[String]] = []
            for p in all.flatMap(\.migrationPlans) { for n in p.names { if let t = resolve(n, in: p.owner) { planned.append(t.path) } } }
            let candidates = planned.isEmpty ? schemas : schemas.filter { s in planned.contains(s.owner) }
            chosen = (candidates.isEmpty ? schemas : candidates).max { $0.version.lexicographicallyPrecedes($1.version) }
            why = planned.isEmpty ? "the highest versionIdentifier" : "the migration plan's highest version"
        }
        guard let chosen else { return ([], "") }
        var keys: [String] = []
        // `models` returns its own list, or another's (`{ AppSchema.models }`, issue 31 point 8).
        var budget = Self.listBudget
        var unfollowed: [String] = []
        let listed = chosen.names.map { (name: $0, scope: chosen.owner) }
            + followLists(chosen.references, scope: chosen.owner, budget: &budget, unfollowed: &unfollowed)
        let owner = chosen.owner.joined(separator: ".")
        for (n, scope) in listed {
            guard let t = resolve(n, in: scope), models[t.path.joined(separator: ".")] != nil else {
                note(SwiftRules.notUnderstood, "'\(owner)' lists the model '\(n.joined(separator: "."))', which the sources do not declare as an @Model class; skipped",
                     fix: "add the file that declares it to the schema source", at: chosen.origin)
                continue
            }
            let key = t.path.joined(separator: ".")
            if !keys.contains(key) { keys.append(key) }
        }
        if listed.isEmpty, !unfollowed.isEmpty {
            note(SwiftRules.notUnderstood, "'\(owner)'.models returns \(unfollowed.map { "'\($0)'" }.joined(separator: ", ")), which names no static list of the sources; its models are not known",
                 fix: "add the file that declares the list to the schema source, or list the models in '\(owner)' itself", at: chosen.origin)
        }
        choice = (owner, why, keys.count, unfollowed)
        return (keys, owner)
    }

    /// The models ckschema.yaml lists (`swiftData.models`), each found by its name or its
    /// qualified path (`SchemaV2.Trip`): among the models the reader would choose first (a
    /// VersionedSchema's), else among every `@Model` class. CK646 for a name that finds none,
    /// or several.
    func listedModels(_ names: [ModelName], chosen: [String], path: String) throws(InputError) -> [String] {
        var keys: [String] = []
        var errors: [Diagnostic] = []
        for n in names {
            let wanted = n.name.split(separator: ".").map(String.init)
            func matching(_ candidates: [String]) -> [String] {
                candidates.filter { key in models[key].map { $0.path.suffix(wanted.count).elementsEqual(wanted) } ?? false }
            }
            var found = matching(chosen)
            if found.isEmpty { found = matching(modelOrder) }
            if found.count == 1 {
                if !keys.contains(found[0]) { keys.append(found[0]) }
                continue
            }
            if found.isEmpty {
                let known = modelOrder.compactMap { models[$0]?.name }
                errors.append(Diagnostic(rule: SwiftRules.unknownModel,
                                         "swiftData.models names '\(n.name)', which the Swift sources at '\(path)' do not declare as an @Model class\(Suggest.phrase(for: wanted.last ?? n.name, in: known))",
                                         at: n.location, fix: "name one of the @Model classes: " + Array(Set(known)).sorted().prefix(12).joined(separator: ", ")))
            } else {
                errors.append(Diagnostic(rule: SwiftRules.unknownModel,
                                         "swiftData.models names '\(n.name)', which \(found.count) @Model classes of the sources share (\(found.map { "'\($0)'" }.joined(separator: ", ")))",
                                         at: n.location, fix: "qualify it with the type it is declared in, like '\(found[0])'"))
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        return keys
    }

    mutating func model(path: String, version: String?, models listed: [ModelName]? = nil) throws(InputError) -> CoreDataModel {
        var (keys, versionName) = try chosenModels(path: path, version: version)
        if let listed {
            // The list is the team's word: it replaces the reader's choice, and a local-only
            // configuration does not take a listed model out.
            keys = try listedModels(listed, chosen: keys, path: path)
            return try build(keys, path: path, versionName: versionName)
        }
        // Models a local-only configuration names stay out of CloudKit, unless a synced
        // configuration names them too (a fallback store without iCloud is `.none`).
        let schemaProperties = all.flatMap(\.schemaProperties)
        func configured(_ config: SwiftDeclarations.LocalConfiguration) -> Set<String> {
            var names = config.names.map { (name: $0, scope: [String]()) }
            for ref in config.schemaReferences {
                // `Type.schema` (or `schema` alone): the static property of that name and path end.
                if let p = schemaProperties.first(where: { $0.path.suffix(ref.count).elementsEqual(ref) }) { names += p.names.map { (name: $0, scope: [String]()) } }
            }
            var budget = Self.listBudget
            var unfollowed: [String] = []
            for ref in config.listReferences {
                // `Schema(localOnlyTypes)`: the one static list of that name and path end.
                let lists = staticLists.values.filter { $0.path.suffix(ref.count).elementsEqual(ref) }
                guard lists.count == 1, let list = lists.first else { continue }
                let scope = Array(list.path.dropLast())
                names += list.names.map { (name: $0, scope: scope) }
                names += followLists(list.references, scope: scope, budget: &budget, unfollowed: &unfollowed)
            }
            return Set(names.compactMap { resolve($0.name, in: $0.scope)?.path.joined(separator: ".") })
        }
        let synced = all.flatMap(\.syncedConfigurations).reduce(into: Set<String>()) { $0.formUnion(configured($1)) }
        for config in all.flatMap(\.localConfigurations) {
            let excluded = configured(config).subtracting(synced)
            let kept = keys.filter { excluded.contains($0) }
            guard !kept.isEmpty else { continue }
            keys.removeAll { excluded.contains($0) }
            exclusions.append((config.origin, kept.map { String($0.split(separator: ".").last ?? "") }))
            note(SwiftRules.excluded, "this ModelConfiguration keeps \(kept.map { "'\($0.split(separator: ".").last ?? "")'" }.joined(separator: ", ")) out of CloudKit (cloudKitDatabase: .none); left out of the schema",
                 at: config.origin)
        }
        return try build(keys, path: path, versionName: versionName)
    }

    /// The model of the chosen classes (by key).
    mutating func build(_ keys: [String], path: String, versionName: String) throws(InputError) -> CoreDataModel {
        let chosen = keys.compactMap { models[$0] }
        guard !chosen.isEmpty else {
            throw InputError(Diagnostic(rule: SwiftRules.noModel, "the Swift sources at '\(path)' give no @Model class that syncs with CloudKit: " + foundSummary(),
                                        at: SourceLocation(file: path, line: 1, column: 1),
                                        fix: noModelFix()))
        }
        let modelNames = Dictionary(chosen.map { ($0.path.joined(separator: "."), $0.name) }, uniquingKeysWith: { a, _ in a })
        var entities: [CoreDataModel.Entity] = []
        for m in chosen { entities.append(entity(m, modelNames: modelNames)) }
        inferInverses(&entities)
        let origin = chosen[0].origin
        var model = CoreDataModel(file: path, versionName: versionName, usedWithCloudKit: true, entities: entities, origin: Origin(SourceLocation(file: path, line: 1, column: 1)))
        _ = origin
        model.language = .swiftData
        model.notes = notes + chosen.flatMap(\.notes)
        return model
    }

    /// What the reader found, when it keeps no model (CK645): the `@Model` classes, the
    /// VersionedSchema chosen and what it lists, the containers, the local-only configurations.
    func foundSummary() -> String {
        var found: [String] = []
        let names = modelOrder.map { "'" + $0 + "'" }
        found.append(names.isEmpty ? "they declare no @Model class"
                     : "they declare \(names.count) @Model class\(names.count == 1 ? "" : "es") (\(names.prefix(8).joined(separator: ", "))\(names.count > 8 ? ", ..." : ""))")
        if let c = choice {
            var text = "the VersionedSchema '\(c.name)' (\(c.why)) lists \(c.listed == 0 ? "none of them" : "\(c.listed)")"
            if !c.unfollowed.isEmpty { text += ", its models returning \(c.unfollowed.map { "'\($0)'" }.joined(separator: ", ")), which the reader could not follow" }
            found.append(text)
        }
        let containers = all.flatMap(\.containerSchemas).map { "Schema(versionedSchema: \($0.joined(separator: ".")).self)" }
        found.append(containers.isEmpty ? "no container built from Schema(versionedSchema:)" : "the container is built from " + containers.joined(separator: ", "))
        for e in exclusions {
            found.append("the ModelConfiguration at \(e.origin) (cloudKitDatabase: .none) excludes \(e.names.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return found.joined(separator: "; ")
    }

    /// What to do when no model is left (CK645), from what took them away.
    func noModelFix() -> String {
        if modelOrder.isEmpty { return "point the schema source at the folder holding the app's @Model classes" }
        if let c = choice, !c.unfollowed.isEmpty {
            return "add the file that declares \(c.unfollowed.map { "'\($0)'" }.joined(separator: ", ")) to the schema source, or list the models in '\(c.name)' itself"
        }
        if !exclusions.isEmpty { return "name the synced models in a ModelConfiguration that syncs (cloudKitDatabase: .private(...) or .automatic), or point the schema source at the synced models" }
        return "list the synced models in the VersionedSchema the container uses"
    }

    /// The Core Data attribute type of a Swift value type SwiftData stores as it is.
    /// Source: Apple, SwiftData “Defining data relationships with enumerations and model
    /// classes” / Schema.Attribute (the supported value types), and the corpus exports.
    static func attributeType(_ name: String) -> String? {
        // A switch over strings compares case after case: the first byte picks the few that
        // can match, and rules out most app types (`Model1`) at once (Benchmarks/swift).
        switch name.utf8.first {
        case UInt8(ascii: "S"): return name == "String" ? "String" : nil
        case UInt8(ascii: "I"):
            switch name {
            case "Int", "Int64": return "Integer 64"
            case "Int32": return "Integer 32"
            case "Int16", "Int8": return "Integer 16"
            default: return nil
            }
        case UInt8(ascii: "U"):
            switch name {
            case "UUID": return "UUID"
            case "URL": return "URI"
            case "UInt", "UInt64", "UInt32": return "Integer 64"
            case "UInt16": return "Integer 32"
            case "UInt8": return "Integer 16"
            default: return nil
            }
        case UInt8(ascii: "B"): return name == "Bool" ? "Boolean" : nil
        case UInt8(ascii: "D"):
            switch name {
            case "Double": return "Double"
            case "Date": return "Date"
            case "Decimal": return "Decimal"
            case "Data": return "Binary"
            default: return nil
            }
        case UInt8(ascii: "C"): return name == "CGFloat" ? "Double" : nil
        case UInt8(ascii: "T"): return name == "TimeInterval" ? "Double" : nil
        case UInt8(ascii: "F"): return name == "Float" ? "Float" : nil
        default: return nil
        }
    }

    enum Stored {
        case attribute(String)
        case toOne(String)
        case toMany(String)
        case skipped
    }

    /// What a property's type stores as: an attribute type, a relationship, or nothing.
    /// `t`: the property's type with its typealiases expanded and optionals unwrapped
    /// (`expand(type, in: scope).unwrapped.type`, which the caller has made already).
    mutating func classify(unwrapped t: SwiftTypeRef, _ property: UnsafePointer<SwiftDeclarations.Property>, in scope: [String], modelNames: [String: String]) -> Stored {
        func model(_ path: [String]) -> String? {
            guard let d = resolve(path, in: scope) else { return nil }
            return modelNames[d.path.joined(separator: ".")]
        }
        switch t {
        case let .named(path):
            if path.count == 1, let a = Self.attributeType(path[0]), !shadowsStoredType || resolve(path, in: scope) == nil { return .attribute(a) }
            if let m = model(path) { return .toOne(m) }
            if let d = resolve(path, in: scope) {
                if models[d.path.joined(separator: ".")] != nil {
                    note(SwiftRules.notUnderstood, "'\(property.pointee.name)' refers to the model '\(d.path.last ?? "")', which the models chosen (the VersionedSchema's list, or ckschema.yaml's swiftData.models) do not include; skipped", at: property.pointee.origin)
                    return .skipped
                }
                switch d.kind {
                case "enum":
                    note(SwiftRules.uncertain, "'\(property.pointee.name)' stores the enum '\(path.joined(separator: "."))': mirrored as one BYTES field, as the real exports show (Apple does not document it)",
                         fix: "to store a plain value instead, keep its raw value in a String or Int property", at: property.pointee.origin)
                    return .attribute("Transformable")
                case "struct": return .attribute("Transformable")   // a Codable struct: one encoded value
                case "protocol":
                    note(SwiftRules.notUnderstood, "'\(property.pointee.name)' has the protocol type '\(path.joined(separator: "."))', which SwiftData cannot store; skipped", at: property.pointee.origin)
                    return .skipped
                default:
                    note(SwiftRules.notUnderstood, "'\(property.pointee.name)' has the type '\(path.joined(separator: "."))', a class that is not a model: not understood, assumed bytes", at: property.pointee.origin)
                    return .attribute("Transformable")
                }
            }
            if path.count == 1, let a = Self.attributeType(path[0]) { return .attribute(a) }
            note(SwiftRules.notUnderstood, "'\(property.pointee.name)' has the type '\(path.joined(separator: "."))', which the sources do not declare (another module's type?): not understood, assumed bytes",
                 fix: "add the file that declares '\(path.last ?? "")' to the schema source if it is the app's", at: property.pointee.origin)
            return .attribute("Transformable")
        case let .array(e), let .set(e):
            if case let .named(path) = expand(e, in: scope).unwrapped.type {
                if let m = model(path) { return .toMany(m) }
                // A to-many of a model left out is no relationship here, and never bytes.
                if let d = resolve(path, in: scope), models[d.path.joined(separator: ".")] != nil {
                    note(SwiftRules.notUnderstood, "'\(property.pointee.name)' refers to the model '\(d.path.last ?? "")', which the models chosen (the VersionedSchema's list, or ckschema.yaml's swiftData.models) do not include; skipped", at: property.pointee.origin)
                    return .skipped
                }
            }
            return .attribute("Transformable")
        case .dictionary: return .attribute("Transformable")
        case .optional: return .attribute("Transformable")
        case let .other(text):
            note(SwiftRules.notUnderstood, "'\(property.pointee.name)' has the type '\(text)': not understood, assumed bytes", at: property.pointee.origin)
            return .attribute("Transformable")
        case let .tooDeep(text):
            note(SwiftRules.notUnderstood, "'\(property.pointee.name)' has a type nested more than \(SwiftTypeRef.maxDepth) levels deep ('\(text)'): not read, assumed bytes",
                 fix: "name the inner type with a typealias, or store it as Data", at: property.pointee.origin)
            return .attribute("Transformable")
        }
    }

    mutating func entity(_ m: SwiftDeclarations.Model, modelNames: [String: String]) -> CoreDataModel.Entity {
        var e = CoreDataModel.Entity(name: m.name, origin: m.origin)
        let scope = m.path
        if let first = m.inherits.first, let d = resolve([first], in: scope), let parent = modelNames[d.path.joined(separator: ".")] {
            e.parent = parent
        }
        e.attributes.reserveCapacity(m.properties.count)
        // Each property read where it is: a copy per property (a retain and a release of each
        // of its strings, types and lists) was a twentieth of a dense SwiftData import (Benchmarks/swift).
        m.properties.withUnsafeBufferPointer { properties in
            guard let first = properties.baseAddress else { return }
            for i in properties.indices { add(first + i, of: m, scope: scope, to: &e, modelNames: modelNames) }
        }
        e.uniquenessConstraints += m.uniques
        return e
    }

    /// The attribute or relationship property `property` of model `m` stores, added to `e`.
    private mutating func add(_ p: UnsafePointer<SwiftDeclarations.Property>, of m: SwiftDeclarations.Model, scope: [String],
                              to e: inout CoreDataModel.Entity, modelNames: [String: String]) {
        if p.pointee.attributes.contains(where: { $0.name == "Transient" }) { return }
        let attribute = p.pointee.attributes.first { $0.name == "Attribute" }
        let relationship = p.pointee.attributes.first { $0.name == "Relationship" }
        if attribute?.options.contains("ephemeral") == true { return }
        var wrapped = false
        for a in p.pointee.attributes where a.name != "Attribute" && a.name != "Relationship" && a.name != "Transient" {
            note(SwiftRules.notUnderstood, "'\(p.pointee.name)' has the attribute '@\(a.name)' (a property wrapper or macro): what it stores is not understood; skipped", at: a.origin)
            wrapped = true
        }
        if wrapped { return }
        var type = p.pointee.type ?? p.pointee.inferred
        // An inferred type holds only when the sources declare it (or it is a value type
        // SwiftData stores): `Factory.make()` says nothing of what it returns.
        if p.pointee.type == nil, let t = type, case let .named(path) = t {
            let declared = resolve(path, in: scope)
            let primitive = path.count == 1 && Self.attributeType(path[0]) != nil
            if p.pointee.inferredFromMember ? declared?.kind != "enum" : (declared == nil && !primitive) { type = nil }
        }
        guard let type else {
            note(SwiftRules.notUnderstood, "the type of '\(m.name).\(p.pointee.name)' is not written and cannot be told from its initializer; skipped",
                 fix: "write its type: var \(p.pointee.name): Type = ...", at: p.pointee.origin)
            return
        }
        // Expanded and unwrapped once (classify took it apart again: each copy of a type
        // retains and releases its path).
        let (unwrapped, optional) = expand(type, in: scope).unwrapped
        let stored = classify(unwrapped: unwrapped, p, in: scope, modelNames: modelNames)
        switch stored {
        case .skipped: return
        case var .attribute(kind):
            if attribute?.options.contains(where: { $0 == "transformable" }) == true { kind = "Transformable" }
            if attribute?.options.contains("unique") == true { e.uniquenessConstraints.append(([p.pointee.name], attribute?.origin ?? p.pointee.origin)) }
            // Appended, then set in place: an attribute built apart was copied into the array
            // and the original destroyed (about 230 instructions a property).
            e.attributes.append(CoreDataModel.Attribute(name: p.pointee.name, type: kind, origin: p.pointee.origin))
            Self.fill(&e.attributes[e.attributes.count - 1], optional: optional, hasDefault: p.pointee.hasDefault, attribute: attribute)
        case let .toOne(dest), let .toMany(dest):
            var r = CoreDataModel.Relationship(name: p.pointee.name, destination: dest, origin: p.pointee.origin)
            if case .toMany = stored { r.isToMany = true }
            r.isOptional = optional
            r.inverseName = relationship?.inverse?.property
            r.renamingIdentifier = relationship?.originalName ?? attribute?.originalName
            switch relationship?.deleteRule {
            case "cascade": r.deleteRule = .cascade
            case "deny": r.deleteRule = .deny
            case "noAction": r.deleteRule = .noAction
            default: r.deleteRule = .nullify
            }
            if relationship?.options.contains("unique") == true || attribute?.options.contains("unique") == true {
                e.uniquenessConstraints.append(([p.pointee.name], (relationship ?? attribute)?.origin ?? p.pointee.origin))
            }
            e.relationships.append(r)
        }
    }

    /// The attribute's flags from the property and its `@Attribute(...)`.
    private static func fill(_ a: inout CoreDataModel.Attribute, optional: Bool, hasDefault: Bool, attribute: SwiftDeclarations.Attribute?) {
        a.isOptional = optional
        a.hasDefault = hasDefault
        a.allowsCloudEncryption = attribute?.options.contains("allowsCloudEncryption") == true
        a.renamingIdentifier = attribute?.originalName
    }

    /// SwiftData's inverse inference: an explicit `inverse:` on either side names both;
    /// otherwise, a single relationship each way between two models pairs up.
    func inferInverses(_ entities: inout [CoreDataModel.Entity]) {
        let index = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let explicit = entities.map { $0.relationships.map { $0.inverseName != nil } }
        for (ei, e) in entities.enumerated() {
            for (ri, r) in e.relationships.enumerated() {
                guard let di = index[r.destination] else { continue }
                if let inv = r.inverseName {
                    if let qi = entities[di].relationships.firstIndex(where: { $0.name == inv }), entities[di].relationships[qi].inverseName == nil {
                        entities[di].relationships[qi].inverseName = r.name
                    }
                    continue
                }
                if let q = entities[di].relationships.first(where: { $0.destination == e.name && $0.inverseName == r.name }) {
                    entities[ei].relationships[ri].inverseName = q.name
                    continue
                }
                let back = entities[di].relationships.indices.filter { entities[di].relationships[$0].destination == e.name && !explicit[di][$0] && !(di == ei && $0 == ri) }
                let forth = e.relationships.indices.filter { e.relationships[$0].destination == r.destination && !explicit[ei][$0] }
                if back.count == 1, forth.count == 1, di != ei || back[0] != ri {
                    entities[ei].relationships[ri].inverseName = entities[di].relationships[back[0]].name
                }
            }
        }
    }
}
