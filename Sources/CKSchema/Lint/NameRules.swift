/// Record type and field names: a letter, then letters, digits and `_`, at most 255 characters.
///
/// Source: CloudKit Console, "Creating a record type" ("names must start with a letter and
/// contain only letters, numbers, and underscores"); CKRecord, "Supported key names"
/// (https://developer.apple.com/documentation/cloudkit/ckrecord).
struct InvalidNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK101", name: "invalid-name",
        summary: "A record type or field name does not start with a letter, has characters other than letters, digits and '_', or is longer than 255 characters.",
        defaultSeverity: .error,
        source: "CloudKit Console: record type and field names; CKRecord key names (developer.apple.com/documentation/cloudkit/ckrecord)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            if let v = CloudKitRules.recordTypeNameViolation(t.name) { findings.append(LintFinding(v.message, at: t.origin, fix: v.fix)) }
            for f in t.fields {
                if let v = CloudKitRules.fieldNameViolation(f.name, inType: t.name) { findings.append(LintFinding(v.message, at: f.origin, fix: v.fix)) }
            }
        }
    }
}

/// A field named like a CKRecord property cannot be set through the record's subscript.
///
/// Source: CKRecord, "Accessing the record's fields": keys must not conflict with the
/// names of CKRecord's own properties (developer.apple.com/documentation/cloudkit/ckrecord).
struct ReservedFieldNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK102", name: "reserved-field-name",
        summary: "A field is named like a CKRecord property (recordID, creationDate, parent, ...).",
        defaultSeverity: .error,
        source: "CKRecord: key names must not match CKRecord property names (developer.apple.com/documentation/cloudkit/ckrecord)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            for f in t.fields {
                if let v = CloudKitRules.reservedNameViolation(f.name, inType: t.name) { findings.append(LintFinding(v.message, at: f.origin, fix: v.fix)) }
            }
        }
    }
}

/// Zone names: ASCII, at most 255 characters, not starting with '_' (reserved for `_defaultZone`).
///
/// Source: CKRecordZone.ID, zoneName ("must be ASCII ... 255 characters or fewer";
/// developer.apple.com/documentation/cloudkit/ckrecordzone/id).
struct InvalidZoneNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK103", name: "invalid-zone-name",
        summary: "A zone name is not ASCII, is longer than 255 characters, or starts with '_'.",
        defaultSeverity: .error,
        source: "CKRecordZone.ID zoneName (developer.apple.com/documentation/cloudkit/ckrecordzone/id)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for z in schema.zones {
            if let v = CloudKitRules.zoneNameViolation(z.name) { findings.append(LintFinding(v.message, at: z.origin, fix: v.fix)) }
        }
    }
}
