/// What a declared query needs from the schema. CloudKit refuses, in production only, a
/// query on a field without the index it needs.
///
/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery): "fields in the
/// predicate must be queryable, sort fields sortable, tokenized search needs searchable";
/// the server's error "Field 'recordName' is not marked queryable" for a query that matches
/// all records (`NSPredicate(value: true)`) when recordName has no queryable index.
struct QueryIndexRule: LintRule {
    static let info = RuleInfo(
        code: "CK110", name: "query-needs-index",
        summary: "A declared query filters on a field that is not queryable, sorts on one that is not sortable, searches one that is not searchable, or matches all records without recordName queryable.",
        defaultSeverity: .error,
        source: "CKQuery (developer.apple.com/documentation/cloudkit/ckquery); server error \"Field 'recordName' is not marked queryable\"")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
        for q in schema.queries {
            guard let t = types[q.recordType] else { continue }
            let needs: [(String, IndexKind, String)] = q.filter.map { ($0, .queryable, "filters on") }
                + q.search.map { ($0, .searchable, "searches") } + q.sort.map { ($0, .sortable, "sorts on") }
            for (name, kind, verb) in needs {
                guard let idx = t.indexesOfAnyField(name), !idx.contains(kind) else { continue }
                let place = SystemField(rawValue: name) != nil && t.field(named: name) == nil ? "system.\(name)" : "fields.\(name)"
                findings.append(LintFinding("query \(q.label) \(verb) '\(name)': Field '\(name)' is not marked \(kind.rawValue)",
                                            at: q.origin, fix: "add '\(kind.rawValue)' to the indexes of \(t.name).\(place)"))
            }
            if !q.filtersRecords && !t.indexes(on: .recordName).contains(.queryable) {
                findings.append(LintFinding("query \(q.label) matches all records: Field 'recordName' is not marked queryable",
                                            at: q.origin, fix: "add 'system: { recordName: [queryable] }' to \(t.name)"))
            }
        }
    }
}

/// A declared query must name a record type and fields that exist.
///
/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery): production refuses
/// unknown record types and fields ("Did not find record type", "Unknown field").
struct QueryUnknownNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK113", name: "query-unknown-name",
        summary: "A declared query names a record type or field the schema does not define.",
        defaultSeverity: .error,
        source: "CKQuery (developer.apple.com/documentation/cloudkit/ckquery)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
        for q in schema.queries {
            guard let t = types[q.recordType] else {
                findings.append(LintFinding("query \(q.label) names record type '\(q.recordType)', which the schema does not define\(Suggest.phrase(for: q.recordType, in: schema.recordTypes.map(\.name)))",
                                            at: q.origin, fix: "correct 'recordType:' or define the record type"))
                continue
            }
            for name in q.filter + q.search + q.sort where t.indexesOfAnyField(name) == nil {
                let known = t.fields.map(\.name) + SystemField.allCases.map(\.rawValue)
                findings.append(LintFinding("query \(q.label) names field '\(name)', which '\(t.name)' does not have\(Suggest.phrase(for: name, in: known))",
                                            at: q.origin, fix: "correct the field name or add the field to '\(t.name)'"))
            }
        }
    }
}

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

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
        for q in schema.queries {
            guard let qdb = q.database, let t = types[q.recordType], let tdb = schema.database(of: t), qdb != tdb else { continue }
            // A private-database type can also be read through the shared database.
            if qdb == .shared && tdb == .private { continue }
            findings.append(LintFinding("query \(q.label) runs in the \(qdb.rawValue) database, but '\(t.name)' lives in the \(tdb.rawValue) database",
                                        at: q.origin, fix: "set the query's database to \(tdb.rawValue)"))
        }
    }
}

/// A deprecated field or record type still used by a declared query.
///
/// Source: production never deletes a deployed field ("Deploying an iCloud Container's
/// Schema", developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema),
/// so retiring one means deprecating it and removing its uses.
struct DeprecatedInQueryRule: LintRule {
    static let info = RuleInfo(
        code: "CK119", name: "deprecated-in-query",
        summary: "A declared query uses a deprecated field or record type.",
        defaultSeverity: .warning,
        source: "Deploying an iCloud Container's Schema (developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
        for q in schema.queries {
            guard let t = types[q.recordType] else { continue }
            if t.isDeprecated {
                findings.append(LintFinding("query \(q.label) uses record type '\(t.name)', which is deprecated", at: q.origin,
                                            fix: "stop querying '\(t.name)' or un-deprecate it"))
            }
            var seen = Set<String>()
            for name in q.filter + q.search + q.sort where seen.insert(name).inserted {
                if let f = t.field(named: name), f.isDeprecated {
                    findings.append(LintFinding("query \(q.label) uses field '\(t.name).\(name)', which is deprecated", at: q.origin,
                                                fix: "query the field that replaces it"))
                }
            }
        }
    }
}
