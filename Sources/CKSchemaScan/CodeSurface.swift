import CKSchemaDiagnostics
import CKSchemaModel

/// The app's CloudKit surface: per record type what the code creates, writes, reads,
/// filters and sorts, the zones and databases it uses, with every place (docs/scan.md).
public struct CodeSurface: Sendable {
    /// The version of `scan --format json`'s shape.
    public static let formatVersion = 1

    /// One record type's uses: each name (field, zone, database) with its places.
    public struct Uses: Sendable {
        public var created: [SourceLocation] = []
        public var written: [String: [SourceLocation]] = [:]
        public var writtenEncrypted: [String: [SourceLocation]] = [:]
        public var read: [String: [SourceLocation]] = [:]
        public var filtered: [String: [SourceLocation]] = [:]
        public var sorted: [String: [SourceLocation]] = [:]
        public var zones: [String: [SourceLocation]] = [:]
        public var databases: [String: [SourceLocation]] = [:]

        var isEmpty: Bool {
            created.isEmpty && written.isEmpty && writtenEncrypted.isEmpty && read.isEmpty && filtered.isEmpty && sorted.isEmpty && zones.isEmpty && databases.isEmpty
        }
    }

    public var recordTypes: [String: Uses] = [:]
    /// Default-zone change fetches and zone deletions found (each also a finding).
    public var zoneChanges: [SourceLocation] = []
    public var zoneDeletes: [SourceLocation] = []

    public init() {}

    /// Puts `redone` (the surfaces of files read again, in reading order) in place of what
    /// the files named `files` first gave; `order` gives each file's place, so that every list
    /// stays in file order.
    mutating func replace(files: Set<String>, with redone: [CodeSurface], order: [String: Int]) {
        func kept(_ l: [SourceLocation]) -> [SourceLocation] { l.filter { !files.contains($0.file) } }
        func ordered(_ l: [SourceLocation]) -> [SourceLocation] {
            l.enumerated().sorted { (order[$0.element.file] ?? 0, $0.offset) < (order[$1.element.file] ?? 0, $1.offset) }.map(\.element)
        }
        let tables: [WritableKeyPath<Uses, [String: [SourceLocation]]>] = [\.written, \.writtenEncrypted, \.read, \.filtered, \.sorted, \.zones, \.databases]
        for (type, var u) in recordTypes {
            u.created = kept(u.created)
            for t in tables { u[keyPath: t] = u[keyPath: t].mapValues(kept).filter { !$0.value.isEmpty } }
            recordTypes[type] = u.isEmpty ? nil : u
        }
        zoneChanges = kept(zoneChanges)
        zoneDeletes = kept(zoneDeletes)
        for other in redone {
            for (type, u) in other.recordTypes {
                recordTypes[type, default: Uses()].created += u.created
                for t in tables {
                    for (name, places) in u[keyPath: t] { recordTypes[type, default: Uses()][keyPath: t][name, default: []] += places }
                }
            }
            zoneChanges += other.zoneChanges
            zoneDeletes += other.zoneDeletes
        }
        for (type, var u) in recordTypes {
            u.created = ordered(u.created)
            for t in tables { u[keyPath: t] = u[keyPath: t].mapValues(ordered) }
            recordTypes[type] = u
        }
        zoneChanges = ordered(zoneChanges)
        zoneDeletes = ordered(zoneDeletes)
    }

    mutating func add(_ type: String, _ path: WritableKeyPath<Uses, [String: [SourceLocation]]>, _ name: String, _ loc: SourceLocation) {
        recordTypes[type, default: Uses()][keyPath: path][name, default: []].append(loc)
    }

    /// The surface with the subscriptions and findings, as `scan --format json` prints it;
    /// `databases` gives each subscription's database (`null` where it is nil: not resolved).
    public func json(subscriptions: [Subscription], databases: [Database?]? = nil, diagnostics: [Diagnostic]) -> JSONValue {
        func places(_ l: [SourceLocation]) -> JSONValue { .array(l.map { .string($0.description) }) }
        func table(_ t: [String: [SourceLocation]]) -> JSONValue { .object(t.keys.sorted().map { ($0, places(t[$0]!)) }) }
        let types: [(String, JSONValue)] = recordTypes.keys.sorted().map { name in
            let u = recordTypes[name]!
            return (name, .object([
                ("created", places(u.created)), ("written", table(u.written)), ("writtenEncrypted", table(u.writtenEncrypted)),
                ("read", table(u.read)), ("filtered", table(u.filtered)), ("sorted", table(u.sorted)),
                ("zones", table(u.zones)), ("databases", table(u.databases)),
            ]))
        }
        let subs: [JSONValue] = subscriptions.enumerated().map { i, s in
            let database = databases.map { i < $0.count ? $0[i]?.rawValue : nil } ?? s.database.rawValue
            return .object([("id", .string(s.id)), ("kind", .string(s.kind.rawValue)), ("database", .optional(database)),
                     ("recordType", .optional(s.recordType)), ("predicate", .optional(s.predicate)), ("zone", .optional(s.zone)),
                     ("desiredKeys", .array(s.desiredKeys.map { .string($0) })), ("location", .optional(s.origin.location?.description))])
        }
        let found: [JSONValue] = diagnostics.map { d in
            .object([("code", .string(d.code)), ("severity", .string(d.severity.rawValue)), ("location", .optional(d.location?.description)),
                     ("message", .string(d.message)), ("fix", .optional(d.fix))])
        }
        return .object([
            ("version", .int(Self.formatVersion)), ("recordTypes", .object(types)), ("subscriptions", .array(subs)),
            ("defaultZoneChanges", places(zoneChanges)), ("defaultZoneDeletes", places(zoneDeletes)), ("diagnostics", .array(found)),
        ])
    }
}
