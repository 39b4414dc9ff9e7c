/// CloudKit's rules on names, types, indexes and encryption: the one place they are written.
///
/// Lint (CK101-CK107), the `.ckdb` reader, migration steps, the store and `validate`'s
/// schema inference all ask here, so a rule changed here changes every command. Each
/// check returns `CloudKitViolation`s (rule, message, fix) and never decides a severity:
/// the caller does.
///
/// Ground truth: what CloudKit itself exported (`cktool export-schema`) is valid. Where
/// Apple's prose and a real export disagree the export wins; `docs/rules.md` names both.
public enum CloudKitRule: String, Sendable, Hashable, CaseIterable {
    /// Record type and field names.
    case invalidName = "CK101"
    /// Field names that are CKRecord properties.
    case reservedFieldName = "CK102"
    /// Zone names.
    case invalidZoneName = "CK103"
    /// An index kind the field's type does not take.
    case indexNotAllowed = "CK104"
    /// An index on an encrypted field.
    case encryptedIndexed = "CK105"
    /// ENCRYPTED on a type that cannot be encrypted.
    case encryptedTypeNotAllowed = "CK106"
    /// An encrypted field in the public database.
    case encryptedInPublicDatabase = "CK107"

    /// The stable rule code (`CK105`).
    public var code: String { rawValue }
}

extension CloudKitRule {
    /// What docs/rules.md says of the rule: code, name, summary, severity and source. Lint's
    /// rule of this code, migration steps and `validate` report it with this.
    public var info: RuleInfo {
        switch self {
        case .invalidName: Self.invalidNameInfo
        case .reservedFieldName: Self.reservedFieldNameInfo
        case .invalidZoneName: Self.invalidZoneNameInfo
        case .indexNotAllowed: Self.indexNotAllowedInfo
        case .encryptedIndexed: Self.encryptedIndexedInfo
        case .encryptedTypeNotAllowed: Self.encryptedTypeNotAllowedInfo
        case .encryptedInPublicDatabase: Self.encryptedInPublicDatabaseInfo
        }
    }

    private static let invalidNameInfo = RuleInfo(code: "CK101", name: "invalid-name",
        summary: "A record type or field name does not start with a letter, has characters other than letters, digits and '_', or is longer than 255 characters.",
        defaultSeverity: .error,
        source: "CloudKit Console: record type and field names; CKRecord key names (developer.apple.com/documentation/cloudkit/ckrecord)")
    private static let reservedFieldNameInfo = RuleInfo(code: "CK102", name: "reserved-field-name",
        summary: "A field is named like a CKRecord property (recordID, creationDate, parent, ...).",
        defaultSeverity: .error,
        source: "CKRecord: key names must not match CKRecord property names (developer.apple.com/documentation/cloudkit/ckrecord)")
    private static let invalidZoneNameInfo = RuleInfo(code: "CK103", name: "invalid-zone-name",
        summary: "A zone name is empty, longer than 255 characters, holds a control character or white space, or starts with '_'.",
        defaultSeverity: .error,
        source: "CKRecordZone.ID zoneName (developer.apple.com/documentation/cloudkit/ckrecordzone/id)")
    private static let indexNotAllowedInfo = RuleInfo(code: "CK104", name: "index-not-allowed",
        summary: "An index kind the field's type does not allow: searchable on anything but string or list<string>, any index on an asset, sortable on a list, searchable on a system field.",
        defaultSeverity: .error,
        source: "CloudKit Console Reference: Indexes (developer.apple.com/documentation/cloudkit/managing-icloud-containers-with-the-cloudkit-database-app)")
    private static let encryptedIndexedInfo = RuleInfo(code: "CK105", name: "encrypted-field-indexed",
        summary: "An encrypted field has an index.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")
    private static let encryptedTypeNotAllowedInfo = RuleInfo(code: "CK106", name: "encrypted-type-not-allowed",
        summary: "A reference, asset or legacy number field (or a list of them) is marked encrypted: CloudKit encrypts only bytes, string, double, int64, location and timestamp.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")
    private static let encryptedInPublicDatabaseInfo = RuleInfo(code: "CK107", name: "encrypted-in-public-database",
        summary: "A record type in the public database has an encrypted field.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")
}

/// One breach of a CloudKit rule: what is wrong and what to do, in the source's notation.
public struct CloudKitViolation: Sendable, Hashable {
    public var rule: CloudKitRule
    public var message: String
    public var fix: String
    /// The index kinds the fix removes, where the fix is to remove them (CK104): lint turns
    /// it into a fix-it where the reader measured the field's indexes.
    public var removedIndexes: IndexKinds

    public init(_ rule: CloudKitRule, _ message: String, fix: String, removedIndexes: IndexKinds = []) {
        self.rule = rule
        self.message = message
        self.fix = fix
        self.removedIndexes = removedIndexes
    }
}

/// The language a schema was written in, so that messages name things as the file does
/// (`___recordID` in `.ckdb`, `recordName` in YAML) and fixes suggest only syntax it has.
public enum SchemaNotation: String, Sendable, Hashable {
    case yaml, ckdb

    /// How a system field is named: `recordName` (YAML), `"___recordID"` (`.ckdb`).
    public func name(of system: SystemField) -> String {
        self == .ckdb ? system.ckdbName : system.rawValue
    }

    /// The words of an index kind: `queryable` (YAML), `QUERYABLE` (`.ckdb`).
    public func word(_ kind: IndexKind) -> String {
        self == .ckdb ? kind.rawValue.uppercased() : kind.rawValue
    }

    /// How a field's type is spelled: `list<string>` (YAML), `LIST<STRING>` (`.ckdb`).
    public func spell(_ type: FieldType) -> String {
        guard self == .ckdb else { return type.description }
        var base = type.primitive.ckdbKeyword
        if let p = type.preferred { base += " PREFERRED AS \(p.ckdbKeyword)" }
        return type.isList ? "LIST<\(base)>" : base
    }

    /// The fix that removes encryption: `remove 'encrypted: true'` / `remove ENCRYPTED`.
    var removeEncryption: String { self == .ckdb ? "remove ENCRYPTED" : "remove 'encrypted: true'" }

    /// The fix that removes an index kind from a field.
    func removeIndex(_ kinds: [IndexKind]) -> String {
        let words = kinds.map { self == .ckdb ? $0.rawValue.uppercased() : "'\($0.rawValue)'" }.joined(separator: ", ")
        return "remove \(words)"
    }

    /// The fix that gives custom field `f` of `type` the index `kind` it lacks: `add 'sortable'
    /// to the indexes of Note.fields.title` (YAML), `declare "title" STRING QUERYABLE SORTABLE
    /// in RECORD TYPE Note` (`.ckdb`: the field's line with the index added).
    public func addIndex(_ kind: IndexKind, to f: Field, of type: RecordType) -> String {
        guard self == .ckdb else { return "add '\(kind.rawValue)' to the indexes of \(type.name).fields.\(f.name)" }
        return declare("\"\(f.name)\" \(spell(f.type))", f.indexes.union([kind]), in: type)
    }

    /// The fix that gives system field `system` of `type` the index `kind` it lacks: `add
    /// 'sortable' to the indexes of Note.system.createdAt` (YAML), `declare "___createTime"
    /// TIMESTAMP SORTABLE in RECORD TYPE Note` (`.ckdb`, the line a cktool export writes).
    public func addIndex(_ kind: IndexKind, to system: SystemField, of type: RecordType) -> String {
        guard self == .ckdb else { return "add '\(kind.rawValue)' to the indexes of \(type.name).system.\(system.rawValue)" }
        return declare("\"\(system.ckdbName)\" \(system.type.ckdbKeyword)", type.indexes(on: system).union([kind]), in: type)
    }

    /// The fix for a query that matches all records without a queryable record name: `add
    /// 'system: { recordName: [queryable] }' to Note` (YAML), `declare "___recordID" REFERENCE
    /// QUERYABLE in RECORD TYPE Note` (`.ckdb`).
    public func queryableRecordName(_ type: RecordType) -> String {
        self == .ckdb ? addIndex(.queryable, to: .recordName, of: type) : "add 'system: { recordName: [queryable] }' to \(type.name)"
    }

    private func declare(_ field: String, _ indexes: IndexKinds, in type: RecordType) -> String {
        let name = CloudKitRules.isValidName(type.name) ? type.name : "\"\(type.name)\""
        return "declare \(field) \(indexes.kinds.map { word($0) }.joined(separator: " ")) in RECORD TYPE \(name)"
    }
}

/// The checks themselves. Every function is pure and cheap: lint runs them on every field.
public enum CloudKitRules {
    // MARK: Names

    /// A custom record type or field name: an ASCII letter, then letters, digits and `_`,
    /// at most 255 characters.
    ///
    /// Source: CloudKit Console, "Creating a record type" ("names must start with a letter
    /// and contain only letters, numbers, and underscores"); CKRecord, "Supported key names"
    /// (developer.apple.com/documentation/cloudkit/ckrecord).
    public static func isValidName(_ name: String) -> Bool {
        // ASCII only, so the UTF-8 bytes are the characters. Read in place where the string
        // allows it (lint asks this of every name).
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, bytes.count <= 255, isLetter(first) else { return false }
            for c in bytes where !(isLetter(c) || (c >= 0x30 && c <= 0x39) || c == 0x5F) { return false }
            return true
        }
    }

    @inline(__always) private static func isLetter(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A)
    }

    /// Record types CloudKit defines and keeps itself; a schema that does not mention one
    /// does not delete it.
    public static let systemRecordTypes: Set<String> = ["Users", "cloudkit.share"]

    /// The system record types every container has from the start. `cloudkit.share` is not
    /// one: CloudKit's development environment creates it when a share is first saved, and
    /// production refuses a share until it is deployed ("Cannot create new type
    /// cloudkit.share in production schema", quoted in the PaperTrail corpus file), so a
    /// development schema that has it and a production one that lacks it is an addition.
    public static let alwaysPresentSystemTypes: Set<String> = ["Users"]

    /// The fields CloudKit itself gives its system record types, with their types.
    ///
    /// Source: real `cktool export-schema` output (the corpus files of Done-and-done and
    /// PaperTrail): `RECORD TYPE "cloudkit.share"` holds `"cloudkit.title" STRING`,
    /// `"cloudkit.type" STRING` and `"cloudkit.thumbnailImageData" BYTES`, created by
    /// CloudKit when a CKShare is first saved. Apple's documentation of CKShare.SystemFieldKey
    /// names `title`, `thumbnailImageData` and `shareType` (stored as `cloudkit.type`).
    public static let systemTypeFields: [String: [String: FieldType]] = [
        "cloudkit.share": [
            "cloudkit.title": FieldType(.string),
            "cloudkit.type": FieldType(.string),
            "cloudkit.thumbnailImageData": FieldType(.bytes),
        ],
    ]

    /// True when `name` is a field CloudKit itself puts on the system record type `type`:
    /// a known one, or any `cloudkit.`-prefixed name on `cloudkit.share` (CloudKit owns that
    /// prefix; refusing a field CloudKit may add later would be a false alarm).
    public static func isSystemField(_ name: String, ofType type: String) -> Bool {
        guard systemRecordTypes.contains(type) else { return false }
        if systemTypeFields[type]?[name] != nil { return true }
        return name.hasPrefix("cloudkit.") && isValidName(String(name.dropFirst("cloudkit.".count)))
    }

    /// CK101: a record type's name.
    public static func recordTypeNameViolation(_ name: String) -> CloudKitViolation? {
        if systemRecordTypes.contains(name) || isValidName(name) { return nil }
        return CloudKitViolation(.invalidName,
                                 "record type name '\(name)' is not valid: it must start with a letter, then only letters, digits and '_' (at most 255)",
                                 fix: "rename the record type")
    }

    /// CK101: a field's name on record type `type`.
    public static func fieldNameViolation(_ name: String, inType type: String) -> CloudKitViolation? {
        if isValidName(name) || isSystemField(name, ofType: type) { return nil }
        return CloudKitViolation(.invalidName,
                                 "field name '\(type).\(name)' is not valid: it must start with a letter, then only letters, digits and '_' (at most 255)",
                                 fix: "rename the field")
    }

    /// Field names that are CKRecord's own properties.
    ///
    /// Source: CKRecord, "Accessing the record's fields": keys must not conflict with the
    /// names of CKRecord's own properties (developer.apple.com/documentation/cloudkit/ckrecord).
    public static let reservedFieldNames: Set<String> = [
        "recordID", "recordType", "recordName", "creationDate", "creatorUserRecordID", "modificationDate",
        "lastModifiedUserRecordID", "recordChangeTag", "parent", "share", "encryptedValues", "allKeys",
        "allTokens", "changedKeys",
    ]

    /// Reserved names by first byte (all ASCII), so most names are cleared without hashing.
    private static let reservedByFirstByte: [[String]] = {
        var table = [[String]](repeating: [], count: 128)
        for name in reservedFieldNames { table[Int(name.utf8.first! & 0x7F)].append(name) }
        return table
    }()

    /// CK102: a custom field named like a CKRecord property (system types are CloudKit's own).
    public static func reservedNameViolation(_ name: String, inType type: String) -> CloudKitViolation? {
        // The name first: most are cleared by their first byte, without hashing the type's.
        guard let first = name.utf8.first, first < 0x80, reservedByFirstByte[Int(first)].contains(name),
              !systemRecordTypes.contains(type) else { return nil }
        return CloudKitViolation(.reservedFieldName, "field '\(type).\(name)' has the name of a CKRecord property",
                                 fix: "rename it, e.g. '\(name)Value'")
    }

    /// CK103: a zone's name: 1 to 255 characters, no control character or white space, not
    /// starting with '_'.
    ///
    /// Source: CKRecordZoneID.h, "Zone names must be 255 characters or less. Most UTF-8
    /// characters are valid." So a non-ASCII name (`Zöne`) is accepted: refusing it would be a
    /// false alarm no source supports. Refused are only what no "most" can cover: control
    /// characters and white space (they cannot be told apart in the Console or a log), and a
    /// leading '_', which begins CloudKit's own `_defaultZone`.
    public static func zoneNameViolation(_ name: String) -> CloudKitViolation? {
        if name == Zone.defaultZoneName { return nil }
        var count = 0
        var printable = true
        for u in name.unicodeScalars {
            count += 1
            if u.properties.generalCategory == .control || u.properties.isWhitespace || u.properties.generalCategory == .format { printable = false }
        }
        if printable && count > 0 && count <= 255 && !name.hasPrefix("_") { return nil }
        return CloudKitViolation(.invalidZoneName,
                                 "zone name '\(name)' is not valid: it must have 1 to 255 characters, no control character or white space, and not start with '_'",
                                 fix: "rename the zone")
    }

    // MARK: Types, indexes and encryption

    /// The primitive types `ENCRYPTED` may precede.
    ///
    /// Source: CloudKit Schema Language, primitive-type: `ENCRYPTED { BYTES | STRING | DOUBLE
    /// | INT64 | LOCATION | TIMESTAMP }`; CKRecord.encryptedValues ("CKAsset and
    /// CKRecord.Reference values aren't supported").
    public static let encryptable: Set<PrimitiveType> = [.bytes, .string, .double, .int64, .location, .timestamp]

    /// The index kinds a (plaintext) field of `type` can have.
    ///
    /// - QUERYABLE: every type but ASSET (assets are never indexed: CloudKit Console
    ///   Reference, "Indexes").
    /// - SEARCHABLE: STRING and LIST<STRING> only ("Searchable ... available for String
    ///   fields"; real exports show `LIST<STRING> QUERYABLE SEARCHABLE`).
    /// - SORTABLE: every scalar type but ASSET. Real exports show `BYTES QUERYABLE SORTABLE`
    ///   (every Core Data `CD_moveReceipt`) and `LOCATION QUERYABLE SORTABLE`, which CloudKit's
    ///   development environment creates itself, so they are valid whatever a reading of
    ///   the prose suggests. No export or document shows a sortable list, and a list has no
    ///   order to sort by, so lists stay unsortable.
    public static func allowedIndexes(for type: FieldType) -> IndexKinds {
        if type.primitive == .asset { return [] }
        var allowed: IndexKinds = [.queryable]
        if type.primitive == .string { allowed.insert(.searchable) }
        if !type.isList { allowed.insert(.sortable) }
        return allowed
    }

    /// The index kinds a system field can have: QUERYABLE and SORTABLE, never SEARCHABLE.
    ///
    /// Source: CloudKit Schema Language, implicit system fields (real exports show
    /// `"___recordID" REFERENCE QUERYABLE`, `"___createdBy" REFERENCE QUERYABLE`,
    /// `"___createTime" TIMESTAMP SORTABLE`); searchable applies to strings only.
    public static let allowedSystemIndexes: IndexKinds = [.queryable, .sortable]

    /// Every CloudKit rule `field` breaks on record type `type` (in `database`, when known),
    /// worded in `notation`. Empty when CloudKit accepts the field as declared.
    public static func fieldViolations(_ f: Field, in type: RecordType, database: Database?, notation: SchemaNotation) -> [CloudKitViolation] {
        var out: [CloudKitViolation] = []
        if let v = fieldNameViolation(f.name, inType: type.name) { out.append(v) }
        if let v = reservedNameViolation(f.name, inType: type.name) { out.append(v) }
        out += indexAndEncryptionViolations(f, in: type, database: database, notation: notation)
        return out
    }

    /// The index and encryption rules alone (CK104-CK107), for callers that check names
    /// themselves.
    public static func indexAndEncryptionViolations(_ f: Field, in type: RecordType, database: Database?, notation: SchemaNotation) -> [CloudKitViolation] {
        // Fast path: a plain field with no index breaks nothing (most fields).
        if !f.isEncrypted && f.indexes.isEmpty { return [] }
        // CK104: index kinds the type does not take.
        let refused = f.indexes.subtracting(allowedIndexes(for: f.type))
        // Most indexed fields break nothing: the words of a message are built only for one
        // that does (building them for every indexed field was a tenth of linting a large
        // schema).
        if refused.isEmpty && !f.isEncrypted { return [] }
        var out: [CloudKitViolation] = []
        let path = "\(type.name).\(f.name)"
        let spelled = notation.spell(f.type)
        if !refused.isEmpty {
            if f.type.primitive == .asset {
                out.append(CloudKitViolation(.indexNotAllowed, "field '\(path)' is of type \(spelled) and cannot be indexed",
                                             fix: notation.removeIndex(refused.kinds) + "; index a field that describes the asset instead", removedIndexes: refused))
            }
            if f.type.primitive != .asset, refused.contains(.searchable) {
                out.append(CloudKitViolation(.indexNotAllowed,
                                             "field '\(path)' is of type \(spelled) and cannot be \(notation.word(.searchable)); only string and list<string> fields can",
                                             fix: notation.removeIndex([.searchable]) + ", or keep a string copy of the text to search", removedIndexes: [.searchable]))
            }
            if f.type.primitive != .asset, refused.contains(.sortable) {
                out.append(CloudKitViolation(.indexNotAllowed,
                                             "field '\(path)' is of type \(spelled) and cannot be \(notation.word(.sortable)); a list has no order to sort by",
                                             fix: notation.removeIndex([.sortable]), removedIndexes: [.sortable]))
            }
        }
        guard f.isEncrypted else { return out }
        // CK105: CloudKit cannot index what it cannot read.
        // Source: CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
        if !f.indexes.isEmpty {
            let kinds = f.indexes.kinds.map { notation.word($0) }.joined(separator: ", ")
            out.append(CloudKitViolation(.encryptedIndexed, "field '\(path)' is encrypted and cannot be \(kinds)",
                                         fix: "remove the index, or store a plaintext copy in another field to query it"))
        }
        // CK106: only some types can be encrypted.
        if !encryptable.contains(f.type.primitive) {
            let why: String
            switch f.type.primitive {
            case .reference: why = "cannot be encrypted: CloudKit needs to read references"
            case .asset: why = "cannot be marked encrypted: asset contents are always encrypted"
            default: why = "cannot be encrypted: only bytes, string, double, int64, location and timestamp can"
            }
            out.append(CloudKitViolation(.encryptedTypeNotAllowed, "field '\(path)' is of type \(spelled) and \(why)",
                                         fix: notation.removeEncryption))
        }
        // CK107: encryption exists only in the private and shared databases.
        if database == .public {
            out.append(CloudKitViolation(.encryptedInPublicDatabase,
                                         "field '\(path)' is encrypted, but '\(type.name)' is in the public database, which cannot store encrypted values",
                                         fix: "move the record type to the private database, or \(notation.removeEncryption) and store the field in plaintext"))
        }
        return out
    }

    /// CK104 on system fields: SEARCHABLE is never allowed.
    public static func systemIndexViolation(_ system: SystemField, _ indexes: IndexKinds, in type: RecordType, notation: SchemaNotation) -> CloudKitViolation? {
        let refused = indexes.subtracting(allowedSystemIndexes)
        guard !refused.isEmpty else { return nil }
        let name = notation.name(of: system)
        let fix = notation == .ckdb ? "remove SEARCHABLE from \"\(name)\"" : "remove 'searchable' from system.\(name)"
        return CloudKitViolation(.indexNotAllowed, "system field '\(type.name).\(name)' cannot be \(notation.word(.searchable))", fix: fix)
    }
}
