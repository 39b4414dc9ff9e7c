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

    static func isValid(_ name: String) -> Bool {
        // ASCII only, so the UTF-8 bytes are the characters.
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 255 else { return false }
        guard (first >= 0x61 && first <= 0x7A) || (first >= 0x41 && first <= 0x5A) else { return false }
        for c in bytes {
            let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
            if !ok { return false }
        }
        return true
    }

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            if !t.isSystemType && !Self.isValid(t.name) {
                findings.append(LintFinding("record type name '\(t.name)' is not valid: it must start with a letter, then only letters, digits and '_' (at most 255)",
                                            at: t.origin, fix: "rename the record type"))
            }
            for f in t.fields where !Self.isValid(f.name) {
                findings.append(LintFinding("field name '\(t.name).\(f.name)' is not valid: it must start with a letter, then only letters, digits and '_' (at most 255)",
                                            at: f.origin, fix: "rename the field"))
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

    /// Reserved names by first byte, so most names are cleared without hashing.
    static let byFirstByte: [UInt8: [String]] = Dictionary(grouping: reserved, by: { $0.utf8.first! })

    static func isReserved(_ name: String) -> Bool {
        guard let first = name.utf8.first, let candidates = byFirstByte[first] else { return false }
        return candidates.contains(name)
    }

    static let reserved: Set<String> = [
        "recordID", "recordType", "recordName", "creationDate", "creatorUserRecordID", "modificationDate",
        "lastModifiedUserRecordID", "recordChangeTag", "parent", "share", "encryptedValues", "allKeys",
        "allTokens", "changedKeys",
    ]

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes where !t.isSystemType {
            for f in t.fields where Self.isReserved(f.name) {
                findings.append(LintFinding("field '\(t.name).\(f.name)' has the name of a CKRecord property",
                                            at: f.origin, fix: "rename it, e.g. '\(f.name)Value'"))
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
            let ascii = z.name.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F }
            if z.name == Zone.defaultZoneName { continue }
            if !ascii || z.name.isEmpty || z.name.utf8.count > 255 || z.name.hasPrefix("_") {
                findings.append(LintFinding("zone name '\(z.name)' is not valid: it must be printable ASCII, at most 255 characters, and not start with '_'",
                                            at: z.origin, fix: "rename the zone"))
            }
        }
    }
}
