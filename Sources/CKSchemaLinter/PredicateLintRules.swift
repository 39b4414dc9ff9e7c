import CKSchemaModel
import CKSchemaPredicate

/// One predicate the schema holds: a declared query's or a query subscription's.
struct PredicateSite {
    /// Nil for a query subscription without a predicate (TRUEPREDICATE).
    var text: String?
    /// Where the predicate's first character is (the declaration's place when unknown).
    var start: SourceLocation?
    var recordType: String
    /// `query Note(...)` or `subscription 'happy-notes'`, for messages.
    var label: String
    var isSubscription: Bool
    /// How its keys name system fields: `.cloudKit` for a predicate `scan` found in app code.
    var spelling = DeclaredQuery.Spelling.schema

    /// The predicates of a schema's declared queries and query subscriptions.
    static func all(in schema: Schema) -> [PredicateSite] {
        var out: [PredicateSite] = []
        for q in schema.queries {
            guard let p = q.predicate else { continue }
            out.append(PredicateSite(text: p, start: q.predicateOrigin.location ?? q.origin.location, recordType: q.recordType,
                                     label: "query \(q.name ?? q.recordType)", isSubscription: false, spelling: q.spelling))
        }
        for s in schema.subscriptions where s.kind == .query {
            guard let t = s.recordType else { continue }
            out.append(PredicateSite(text: s.predicate, start: s.predicateOrigin.location ?? s.origin.location, recordType: t,
                                     label: "subscription '\(s.id)'", isSubscription: true, spelling: s.spelling))
        }
        return out
    }

    /// Every problem of these predicates, located inside the predicate (`LintContext` asks once).
    static func problems(of sites: [PredicateSite], types: [String: RecordType], notation: SchemaNotation = .yaml,
                         parsed: ParsedPredicates = ParsedPredicates()) -> [(QueryPredicateError, SourceLocation?, String)] {
        var out: [(QueryPredicateError, SourceLocation?, String)] = []
        // Each distinct text parsed once (a scanned app repeats the same predicate in many
        // files), and checked once on each record type: the checker's answer depends on the
        // predicate, the type and the notation only, and the notation is one per run.
        var checked: [CheckKey: [QueryPredicateError]] = [:]
        for site in sites {
            let text = site.text ?? "TRUEPREDICATE"
            let result = parsed.result(text, site.spelling)
            let predicate: QueryPredicate
            switch result {
            case .success(let p): predicate = p
            case .failure(let error):
                out.append((error, site.start, site.label))
                continue
            }
            guard let t = types[site.recordType] else { continue }
            let key = CheckKey(text: text, spelling: site.spelling, recordType: site.recordType)
            let errors: [QueryPredicateError]
            // Stored once, when first checked (storing it again at every site hashed the key twice).
            if let known = checked[key] { errors = known } else {
                errors = PredicateChecker.check(predicate, on: t, notation: notation)
                checked[key] = errors
            }
            for e in errors { out.append((e, site.start, site.label)) }
            // A declared query that matches all records is CK110's; a subscription's is checked here.
            if site.isSubscription, predicate.matchesAll, !t.indexes(on: .recordName).contains(.queryable) {
                out.append((QueryPredicateError(PredicateRules.needsIndex, column: 1, "matches all records: Field 'recordName' is not marked queryable",
                                           fix: notation.queryableRecordName(t) + ", or give the subscription a predicate"),
                            site.start, site.label))
            }
        }
        return out
    }

    /// A predicate's text as one spelling reads it, on one record type: the key of the check cache.
    private struct CheckKey: Hashable {
        var text: String
        var spelling: DeclaredQuery.Spelling
        var recordType: String
    }
}

/// Predicates parsed once per text and spelling, for one lint run (`LintContext`): the
/// predicate rules and the declared queries' shortfalls read the same parses.
final class ParsedPredicates {
    private struct Key: Hashable {
        var text: String
        var spelling: DeclaredQuery.Spelling
    }
    private var parsed: [Key: Result<QueryPredicate, QueryPredicateError>] = [:]

    init() {}

    /// `PredicateParser.parse(text, spelling:)`'s result, parsed the first time it is asked.
    func result(_ text: String, _ spelling: DeclaredQuery.Spelling) -> Result<QueryPredicate, QueryPredicateError> {
        let key = Key(text: text, spelling: spelling)
        if let known = parsed[key] { return known }
        let result = Result { () throws(QueryPredicateError) in try PredicateParser.parse(text, spelling: spelling) }
        parsed[key] = result
        return result
    }
}

/// Each predicate rule reports its own code's problems from `PredicateSite.problems`.
protocol PredicateLintRule: LintRule {}

extension PredicateLintRule {
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        for i in context.predicateProblemsByCode[Self.info.code] ?? [] {
            let (e, start, label) = context.predicateProblems[i]
            var f = LintFinding("\(label) predicate: \(e.message)", at: .unknown, fix: e.fix)
            if var loc = start {
                loc.column += e.column - 1
                f.location = loc
            }
            findings.append(f)
        }
    }
}
