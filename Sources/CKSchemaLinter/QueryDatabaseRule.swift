import CKSchemaModel

/// A query that runs in one database on a record type that lives in another finds nothing.
///
/// Source: CKDatabase (developer.apple.com/documentation/cloudkit/ckdatabase): each database
/// holds its own records; custom zones exist only in the private database.
struct QueryDatabaseRule: LintRule {
    static let info = RuleInfo(
        code: "CK118", name: "query-wrong-database",
        summary: "A declared query runs in a database other than the one its record type lives in.",
        defaultSeverity: .error,
        source: "CKDatabase (developer.apple.com/documentation/cloudkit/ckdatabase)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for q in schema.queries {
            guard let qdb = q.database, let t = types[q.recordType], let tdb = schema.database(of: t), qdb != tdb else { continue }
            // A private-database type can also be read through the shared database.
            if qdb == .shared && tdb == .private { continue }
            findings.append(LintFinding("query \(q.label) runs in the \(qdb.rawValue) database, but '\(t.name)' lives in the \(tdb.rawValue) database",
                                        at: q.origin, fix: q.spelling == .cloudKit ? "run the query in \(CodeFix.database(tdb))" : "set the query's database to \(tdb.rawValue)"))
        }
    }
}
