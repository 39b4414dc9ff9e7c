import CKSchemaModel
import CKSchemaPredicate

/// What several lint rules need, computed once per lint run and read by every rule (as
/// swift-format's rule context is): the record types by name, the predicates of the declared
/// queries and query subscriptions parsed and checked once, CloudKit's index and encryption
/// findings (CK104-CK107) from one pass over the fields, and what each declared query lacks.
public struct LintContext: Sendable {
    /// The schema being linted.
    public let schema: Schema
    /// Record types by name (the first of a name wins).
    public let recordTypesByName: [String: RecordType]
    /// Every predicate of the schema (declared queries, query subscriptions).
    let predicateSites: [PredicateSite]
    /// Every problem of those predicates, parsed once, located inside the predicate.
    let predicateProblems: [(QueryPredicateError, SourceLocation?, String)]
    /// The indices in `predicateProblems` of each code's problems, in order: each predicate rule
    /// reads its own rather than every problem (a scan's 16,000 queries give as many).
    let predicateProblemsByCode: [String: [Int]]
    /// CK104-CK107's findings, by rule.
    let cloudKitFindings: [CloudKitRule: [LintFinding]]
    /// Why production cannot run each declared query (`DeclaredQuery.shortfalls(on:)`, its
    /// predicate left to `predicateProblems`), in `schema.queries`' order; empty for a query on
    /// an unknown record type. CK110 and CK113 read it.
    let queryShortfalls: [[QueryShortfall]]

    public init(_ schema: Schema) {
        self.schema = schema
        let types = Dictionary(schema.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        recordTypesByName = types
        let sites = PredicateSite.all(in: schema)
        predicateSites = sites
        // Each predicate text parsed once for both (a scanned app's thousands of queries share a few).
        let parsed = ParsedPredicates()
        predicateProblems = PredicateSite.problems(of: sites, types: types, notation: schema.notation.value, parsed: parsed)
        var byCode: [String: [Int]] = [:]
        for (i, p) in predicateProblems.enumerated() { byCode[p.0.rule.code, default: []].append(i) }
        predicateProblemsByCode = byCode
        cloudKitFindings = CloudKitRules.lintFindings(schema)
        queryShortfalls = schema.queries.map { q in types[q.recordType].map { q.shortfalls(on: $0, predicate: false, parse: parsed.result) } ?? [] }
    }
}
