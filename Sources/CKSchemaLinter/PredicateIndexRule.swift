import CKSchemaPredicate

/// Source: CKQuery: "fields in the predicate must be queryable"; the server's error
/// "Field 'recordName' is not marked queryable".
struct PredicateIndexRule: PredicateLintRule { static let info = PredicateRules.needsIndex }
