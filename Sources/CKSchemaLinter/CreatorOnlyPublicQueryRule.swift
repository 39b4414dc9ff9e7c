import CKSchemaModel

/// In the public database, a record type that only its creator may read (`_creator` has READ,
/// `_world` and `_icloud` do not) is queried with a filter on the creator that CloudKit adds
/// itself, so every query on it needs `___createdBy` queryable; without it the server answers
/// "Field 'createdBy' is not marked queryable".
///
/// Source: CloudKit's security roles (a `_creator` grant lets a user read only the records they
/// created); observed and kept by robbiet480/Dispatch, whose public creator-only types
/// (`QuestionFlag`, `SubmittedQuestion`) carry `"___createdBy" REFERENCE QUERYABLE`. Only where
/// the database is known to be public (the type's zone or `database:`, or a declared query's
/// `database: public`): a `.ckdb` has no database, and private-database exports have
/// creator-only types without that index that work (AngelLive, fathom, SakuraRSS).
struct CreatorOnlyPublicQueryRule: LintRule {
    static let info = RuleInfo(
        code: "CK126", name: "public-creator-only-query",
        summary: "A record type in the public database that only `_creator` may read needs `___createdBy` (createdBy) queryable for any query: CloudKit filters such queries by creator and answers \"Field 'createdBy' is not marked queryable\".",
        defaultSeverity: .error,
        source: "CloudKit security roles (_creator reads only its own records); robbiet480/Dispatch CloudKit/schema.ckdb (creator-only public types with \"___createdBy\" REFERENCE QUERYABLE)")

    /// True when only the creator may read the type's records (custom roles aside: a user
    /// without one is still limited to their own records).
    static func isCreatorOnly(_ t: RecordType) -> Bool {
        // One pass over the grants, nothing built (a set of readers per type was 2% of lint).
        var creator = false
        for i in t.grants.indices where t.grants[i].permissions.contains(.read) {
            switch t.grants[i].role {
            case "_world", "_icloud": return false
            case "_creator": creator = true
            default: break
            }
        }
        return creator
    }

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        // In the schema's own language: a `.ckdb`'s fix is the `"___createdBy"` line with QUERYABLE.
        let fix = { (t: RecordType) in schema.notation.value == .ckdb ? schema.notation.value.addIndex(.queryable, to: .createdBy, of: t) : "add `createdBy: [queryable]` under `system:` of '\(t.name)'" }
        let refusal = "CloudKit filters every query on it by creator and refuses one with \"Field 'createdBy' is not marked queryable\""
        for t in schema.recordTypes where Self.isCreatorOnly(t) && !t.indexes(on: .createdBy).contains(.queryable) {
            // The schema puts the type in the public database: at the grant.
            if schema.database(of: t) == .public {
                let grant = t.grants.first { $0.role == "_creator" && $0.permissions.contains(.read) }
                findings.append(LintFinding("only _creator may read '\(t.name)', which lives in the public database: \(refusal)",
                                            at: grant?.origin ?? t.origin, fix: fix(t)))
            }
            // A query runs it in the public database (a declared one, or one `scan` found in the
            // app's code through publicCloudDatabase): at the query.
            for q in schema.queries where q.recordType == t.name && q.database == .public {
                findings.append(LintFinding("query \(q.label) runs in the public database, where only _creator may read '\(t.name)': \(refusal)",
                                            at: q.origin, fix: fix(t)))
            }
        }
    }
}
