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
        CloudKitRules.lint(schema, rule: .indexNotAllowed, into: &findings)
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
        CloudKitRules.lint(schema, rule: .encryptedIndexed, into: &findings)
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
        CloudKitRules.lint(schema, rule: .encryptedTypeNotAllowed, into: &findings)
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
        CloudKitRules.lint(schema, rule: .encryptedInPublicDatabase, into: &findings)
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
                findings.append(LintFinding("field '\(t.name).\(f.name)' uses the legacy type \(schema.notation.value.spell(f.type))",
                                            at: f.origin, fix: "new fields should be int64 or double; a deployed field keeps its type"))
            }
        }
    }
}

extension CloudKitRules {
    /// The findings of one CloudKit rule over a whole schema, for the lint rule of that code.
    static func lint(_ schema: Schema, rule: CloudKitRule, into findings: inout [LintFinding]) {
        let notation = schema.notation.value
        for t in schema.recordTypes {
            let database = schema.database(of: t)
            for f in t.fields where f.isEncrypted || !f.indexes.isEmpty {
                for v in indexAndEncryptionViolations(f, in: t, database: database, notation: notation) where v.rule == rule {
                    findings.append(LintFinding(v.message, at: f.origin, fix: v.fix))
                }
            }
            guard rule == .indexNotAllowed else { continue }
            for s in SystemField.allCases {
                guard let idx = t.systemIndexes[s], let v = systemIndexViolation(s, idx, in: t, notation: notation) else { continue }
                findings.append(LintFinding(v.message, at: t.systemIndexOrigin(s), fix: v.fix))
            }
        }
    }
}
