/// A reference's target must be a record type the schema defines, and only references
/// have a target or a delete action.
///
/// Source: CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference):
/// a reference points at a record; a target type the schema lacks cannot be created in production.
struct UnknownReferenceTargetRule: LintRule {
    static let info = RuleInfo(
        code: "CK108", name: "unknown-reference-target",
        summary: "A reference field names a record type ('to:') that the schema does not define.",
        defaultSeverity: .error,
        source: "CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let names = Set(schema.recordTypes.map(\.name)).union(RecordType.systemTypeNames)
        for t in schema.recordTypes {
            for f in t.fields {
                guard let target = f.referenceTarget, !names.contains(target) else { continue }
                findings.append(LintFinding("field '\(t.name).\(f.name)' references record type '\(target)', which the schema does not define\(Suggest.phrase(for: target, in: names))",
                                            at: f.origin, fix: "define '\(target)' or correct 'to:'"))
            }
        }
    }
}

/// `to:` and `action:` belong to reference fields only.
///
/// Source: CKRecord.Reference; CloudKit Schema Language data-type (only REFERENCE points at records).
struct ReferenceOptionsRule: LintRule {
    static let info = RuleInfo(
        code: "CK109", name: "reference-options-on-non-reference",
        summary: "A field that is not a reference has 'to:' or 'action:'.",
        defaultSeverity: .error,
        source: "CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for t in schema.recordTypes {
            for f in t.fields where f.type.primitive != .reference && (f.referenceTarget != nil || f.referenceAction != nil) {
                findings.append(LintFinding("field '\(t.name).\(f.name)' is of type \(f.type), so 'to:' and 'action:' mean nothing",
                                            at: f.origin, fix: "make it a reference or remove 'to:'/'action:'"))
            }
        }
    }
}

/// A grant must name a built-in role or one the schema creates.
///
/// Source: CloudKit Schema Language, `GRANT ... TO %role-name%` and `CREATE ROLE`;
/// CloudKit Console "Security Roles" (_world, _icloud, _creator are built in).
struct UnknownRoleRule: LintRule {
    static let info = RuleInfo(
        code: "CK121", name: "unknown-role",
        summary: "A grant names a role that is neither built in (_world, _icloud, _creator) nor declared in 'roles'.",
        defaultSeverity: .error,
        source: "CloudKit Schema Language: CREATE ROLE, GRANT (developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let known = schema.knownRoles
        for t in schema.recordTypes {
            for g in t.grants where !known.contains(g.role) {
                findings.append(LintFinding("grant on '\(t.name)' names role '\(g.role)', which is not defined\(Suggest.phrase(for: g.role, in: known))",
                                            at: g.origin, fix: "add '\(g.role)' to 'roles:' or use _world, _icloud or _creator"))
            }
        }
    }
}
