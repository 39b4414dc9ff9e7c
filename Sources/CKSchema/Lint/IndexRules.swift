/// Each type allows only some index kinds: searchable only on strings and lists of strings
/// (so bytes are never searchable), assets never indexed.
///
/// Source: CloudKit Console Reference, "Indexes" ("Searchable ... available for String
/// fields"; assets cannot be indexed); CloudKit Schema Language field-options.
struct IndexNotAllowedRule: LintRule {
    static let info = RuleInfo(
        code: "CK104", name: "index-not-allowed",
        summary: "An index kind the field's type does not allow: searchable on anything but string or list<string>, any index on an asset.",
        defaultSeverity: .error,
        source: "CloudKit Console Reference: Indexes (developer.apple.com/documentation/cloudkit/managing-icloud-containers-with-the-cloudkit-database-app)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            for f in t.fields where !f.indexes.isEmpty {
                if f.type.primitive == .asset {
                    findings.append(LintFinding("field '\(t.name).\(f.name)' is of type \(f.type) and cannot be indexed",
                                                at: f.origin, fix: "remove its indexes; index a field that describes the asset instead"))
                } else if f.indexes.contains(.searchable) && f.type.primitive != .string {
                    findings.append(LintFinding("field '\(t.name).\(f.name)' is of type \(f.type) and cannot be searchable; only string and list<string> fields can",
                                                at: f.origin, fix: "remove 'searchable', or keep a string copy of the text to search"))
                }
            }
            for (s, idx) in t.systemIndexes where idx.contains(.searchable) {
                findings.append(LintFinding("system field '\(t.name).\(s.rawValue)' cannot be searchable",
                                            at: t.origin, fix: "remove 'searchable' from system.\(s.rawValue)"))
            }
        }
    }
}

/// An encrypted field can have no index: the server cannot read what it would index.
///
/// Source: CKRecord.encryptedValues ("encrypted fields can't be indexed";
/// developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedIndexedRule: LintRule {
    static let info = RuleInfo(
        code: "CK105", name: "encrypted-field-indexed",
        summary: "An encrypted field has an index.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            for f in t.fields where f.isEncrypted && !f.indexes.isEmpty {
                let kinds = f.indexes.kinds.map(\.rawValue).joined(separator: ", ")
                findings.append(LintFinding("field '\(t.name).\(f.name)' is encrypted and cannot be \(kinds)",
                                            at: f.origin, fix: "remove the index or store a plaintext copy"))
            }
        }
    }
}

/// References cannot be encrypted, and assets are encrypted already.
///
/// Source: CKRecord.encryptedValues ("CKAsset and CKRecord.Reference values aren't
/// supported"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedTypeRule: LintRule {
    static let info = RuleInfo(
        code: "CK106", name: "encrypted-type-not-allowed",
        summary: "A reference or asset field (or a list of them) is marked encrypted.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            for f in t.fields where f.isEncrypted {
                switch f.type.primitive {
                case .reference:
                    findings.append(LintFinding("field '\(t.name).\(f.name)' is a \(f.type) and references cannot be encrypted",
                                                at: f.origin, fix: "remove 'encrypted: true'; CloudKit needs to read references"))
                case .asset:
                    findings.append(LintFinding("field '\(t.name).\(f.name)' is an \(f.type) and cannot be marked encrypted; asset contents are always encrypted",
                                                at: f.origin, fix: "remove 'encrypted: true'"))
                default: break
                }
            }
        }
    }
}

/// No field of a record type in the public database can be encrypted.
///
/// Source: CKRecord.encryptedValues ("encryption is available only in the private and
/// shared databases"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedPublicRule: LintRule {
    static let info = RuleInfo(
        code: "CK107", name: "encrypted-in-public-database",
        summary: "A record type in the public database has an encrypted field.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes where schema.database(of: t) == .public {
            for f in t.fields where f.isEncrypted {
                findings.append(LintFinding("field '\(t.name).\(f.name)' is encrypted, but '\(t.name)' is in the public database, which cannot store encrypted values",
                                            at: f.origin, fix: "move the record type to the private database or store the field in plaintext"))
            }
        }
    }
}

/// The legacy NUMBER type of the CloudKit Schema Language.
///
/// Source: CloudKit Schema Language, primitive-type (`NUMBER [PREFERRED AS INT64|DOUBLE]`),
/// kept for old containers; new fields should say INT64 or DOUBLE.
struct LegacyNumberRule: LintRule {
    static let info = RuleInfo(
        code: "CK120", name: "legacy-number-type",
        summary: "A field uses the legacy NUMBER type instead of int64 or double.",
        defaultSeverity: .warning,
        source: "CloudKit Schema Language: primitive-type NUMBER (developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            for f in t.fields where f.type.primitive == .number {
                findings.append(LintFinding("field '\(t.name).\(f.name)' uses the legacy type \(f.type)",
                                            at: f.origin, fix: "new fields should be int64 or double; a deployed field keeps its type"))
            }
        }
    }
}
