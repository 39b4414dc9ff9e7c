import Foundation
import CKSchemaCKDB
import CKSchemaCoreData
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaSwift
import CKSchemaYAML

/// Where a command's schema comes from: a YAML file, a folder of YAML files (merged),
/// or a `.ckdb` file.
public enum SchemaSource {
    /// Loads any schema source. Throws `InputError` (exit 2) for unreadable or malformed input.
    public static func load(path: String) throws(InputError) -> Schema {
        try load(path: path, model: ModelSelection())
    }

    /// Loads any schema source; `model` picks the version and configuration of a Core
    /// Data model (`.xcdatamodeld`, `.xcdatamodel`), read as the schema CloudKit mirrors.
    public static func load(path: String, model: ModelSelection) throws(InputError) -> Schema {
        if CoreDataReader.isModel(path: path) { return try CoreDataReader.loadSchema(path: path, selection: model) }
        if isSwiftSource(path: path) { return try loadSwiftData(path: path, selection: model) }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "no such schema file or folder '\(path)'",
                                    at: SourceLocation(file: path, line: 1, column: 1),
                                    fix: "check the path, or the schemas named in ckschema.yaml"))
        }
        if isDir.boolValue { return try loadFolder(path: path) }
        if isCKDB(path: path) { return try loadCKDB(path: path) }
        return try loadYAMLFile(path: path, keepComments: false).schema
    }

    /// True when a path is SwiftData sources: a `.swift` file, or a folder that holds `.swift`
    /// files (searched recursively) and no YAML schema file.
    public static func isSwiftSource(path: String) -> Bool {
        if SwiftModelReader.isSwiftFile(path: path) { return true }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return false }
        guard yamlFiles(inFolder: path).isEmpty else { return false }
        // A folder whose sources cannot all be read is still Swift sources: its load says which (CK001).
        let walk = SwiftModelReader.sourceWalk(at: path)
        return !walk.files.isEmpty || !walk.errors.isEmpty
    }

    /// Reads SwiftData `@Model` sources and maps them as NSPersistentCloudKitContainer
    /// mirrors them: the Swift reader gives the Core Data model, the Core Data mapping the
    /// schema (docs/swiftdata.md). `selection.version` picks a VersionedSchema.
    public static func loadSwiftData(path: String, selection: ModelSelection = ModelSelection(), onDemandFields: Bool = true) throws(InputError) -> Schema {
        let (model, suppressions) = try SwiftModelReader.load(path: path, version: selection.version, models: selection.models)
        var schema = try CoreDataMapping.schema(for: model, onDemandFields: onDemandFields)
        schema.suppressions = SuppressionList(suppressions)
        return schema
    }

    /// True when a file is in the CloudKit Schema Language: by extension, else by its first word.
    public static func isCKDB(path: String) -> Bool {
        if path.lowercased().hasSuffix(".ckdb") { return true }
        if path.lowercased().hasSuffix(".yaml") || path.lowercased().hasSuffix(".yml") { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 4096), as: UTF8.self)
        var rest = Substring(head)
        // Skip comments and blank space to the first word.
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            if rest.hasPrefix("//") || rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else { break }
        }
        let word = rest.prefix(while: { $0.isLetter }).uppercased()
        return word == "DEFINE" || word == "RECORD" || word == "CREATE"
    }

    /// Loads a `.ckdb` file through the CloudKit Schema Language parser.
    static func loadCKDB(path: String) throws(InputError) -> Schema {
        let data = try InputFile.read(path: path, limit: YAMLReader.maxFileSize)
        return try CKDBSource.parse(data, file: path)
    }

    /// Loads one YAML schema file with its comments and layout.
    /// `keepComments: false` skips the layout (comments, key lines, text) when only the model
    /// is needed.
    public static func loadYAMLFile(path: String, keepComments: Bool = true) throws(InputError) -> SchemaFile {
        let data = try InputFile.read(path: path, limit: YAMLReader.maxFileSize)
        return try parseYAML(data, file: path, keepComments: keepComments)
    }

    /// Parses YAML schema text; `file` names it in diagnostics.
    public static func parseYAML(_ data: Data, file: String, keepComments: Bool = true) throws(InputError) -> SchemaFile {
        var loaded = try SchemaDecoder.load(data, file: file, keyLines: keepComments)
        loaded.schema.suppressions = SuppressionList(Suppression.scan(data, file: file))
        let comments = keepComments ? CommentScanner.scan(data, skipping: loaded.multilineScalarLines) : []
        return SchemaFile(path: file, schema: loaded.schema, comments: comments, keyLines: loaded.keyLines,
                          text: keepComments ? String(decoding: data, as: UTF8.self) : "")
    }

    /// The YAML files a folder source holds, in name order.
    public static func yamlFiles(inFolder path: String) -> [String] {
        (try? readableYAMLFiles(inFolder: path)) ?? []
    }

    static let yamlWalk = FolderWalk.Options(recursive: false, includeFile: { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") })

    /// The YAML files a folder holds, in name order; throws CK001 when the folder cannot be
    /// read, rather than reporting it as holding no schema files.
    public static func readableYAMLFiles(inFolder path: String) throws(InputError) -> [String] {
        // The one folder walk (FolderWalk), over the folder's own entries.
        let walk = FolderWalk.walk(path, options: yamlWalk)
        if !walk.errors.isEmpty { throw InputError(walk.errors) }
        return walk.files
    }

    /// Loads every YAML file of a folder and merges them into one schema.
    static func loadFolder(path: String) throws(InputError) -> Schema {
        let files = try readableYAMLFiles(inFolder: path)
        guard !files.isEmpty else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "the folder '\(path)' holds no .yaml schema files",
                                    at: SourceLocation(file: path, line: 1, column: 1)))
        }
        var parts: [Schema] = []
        var errors: [Diagnostic] = []
        for f in files {
            do { parts.append(try loadYAMLFile(path: f, keepComments: false).schema) } catch { errors += error.diagnostics }
        }
        if !errors.isEmpty { throw InputError(errors) }
        var merged = try merge(parts, folder: path)
        // Partial only when every file is (`partial: true`): a full file describes the rest.
        merged.isPartial = parts.allSatisfy(\.isPartial)
        return merged
    }

    /// Merges the files of one folder source; a record type, zone or role defined twice is an error naming both places.
    public static func merge(_ parts: [Schema], folder: String) throws(InputError) -> Schema {
        var merged = Schema(origin: Origin(SourceLocation(file: folder, line: 1, column: 1)))
        var errors: [Diagnostic] = []
        var types: [String: Origin] = [:], zones: [String: Origin] = [:], roles: [String: Origin] = [:], subscriptions: [String: Origin] = [:]
        func duplicate(_ what: String, _ name: String, _ first: Origin, _ second: Origin) -> Diagnostic {
            Diagnostic(rule: InputRules.duplicateDefinition, "\(what) '\(name)' is defined twice; the first definition is at \(first)",
                   at: second.location, fix: "keep one definition")
        }
        for part in parts {
            if let c = part.container {
                if let existing = merged.container, existing != c {
                    errors.append(Diagnostic(rule: InputRules.duplicateDefinition,
                                         "container '\(c)' differs from '\(existing)' named in another file of this folder",
                                         at: part.origin.location))
                } else { merged.container = c }
            }
            for t in part.recordTypes {
                if let first = types[t.name] { errors.append(duplicate("record type", t.name, first, t.origin)); continue }
                types[t.name] = t.origin
                merged.recordTypes.append(t)
            }
            for z in part.zones {
                if let first = zones[z.name] { errors.append(duplicate("zone", z.name, first, z.origin)); continue }
                zones[z.name] = z.origin
                merged.zones.append(z)
            }
            for r in part.roles {
                if let first = roles[r.name] { errors.append(duplicate("role", r.name, first, r.origin)); continue }
                roles[r.name] = r.origin
                merged.roles.append(r)
            }
            merged.queries += part.queries
            merged.suppressions.items += part.suppressions.items
            for sub in part.subscriptions {
                if let first = subscriptions[sub.id] { errors.append(duplicate("subscription", sub.id, first, sub.origin)); continue }
                subscriptions[sub.id] = sub.origin
                merged.subscriptions.append(sub)
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        return merged
    }

    /// Loads the two schema sources side by side (each on its own core when there are
    /// two), and reports the input errors of both when either cannot be read.
    public static func loadPair(from: String, to: String, model: ModelSelection = ModelSelection()) throws(InputError) -> (from: Schema, to: Schema) {
        let (a, b) = Concurrently.both(
            { () -> Swift.Result<Schema, InputError> in Swift.Result { () throws(InputError) in try SchemaSource.load(path: from, model: model) } },
            { () -> Swift.Result<Schema, InputError> in Swift.Result { () throws(InputError) in try SchemaSource.load(path: to, model: model) } })
        switch (a, b) {
        case let (.success(x), .success(y)): return (x, y)
        case let (.failure(e), .success): throw e
        case let (.success, .failure(e)): throw e
        case let (.failure(e1), .failure(e2)): throw InputError(e1.diagnostics + e2.diagnostics)
        }
    }
}
